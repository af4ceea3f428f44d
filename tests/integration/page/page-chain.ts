import OpenAI from 'openai';
import { createBackgroundContext, type BackgroundContext } from '../../../src/background/background-context';
import { installRunService } from '../../../src/background/run-service';
import type { RunServicePort } from '../../../src/background/run-port-handler';
import { settingsSchema, type Settings } from '../../../src/settings/schema';
import { openRunStore } from '../../../src/store/idb-run-store';
import { FakePageWindow } from '../../support/fake-page-window';
import { uniqueDatabaseName } from '../../support/record-builders';
import { startScriptedModelServer, type ScriptedModelServer } from '../../support/scripted-model-server';
import { wirePageToBackground } from './page-bridge-wiring';
import { pageChainSettings } from './page-chain-settings';

export interface PageChain {
  server: ScriptedModelServer;
  page: FakePageWindow;
  context: BackgroundContext;
  pageOrigin: string;
  /** The page's own OpenAI client: its requests go through the hooked fetch. */
  pageClient(): OpenAI;
  close(): Promise<void>;
}

/**
 * The whole chat-turn chain in Node on a fresh store: the page hook on a page window, the bridge, the
 * run service and the real runtime, with `pageChainSettings` (changed by `adjust` when given).
 */
export async function startPageChain(adjust: (settings: Settings) => Settings = (settings) => settings): Promise<PageChain> {
  const server = await startScriptedModelServer();
  const pageOrigin = new URL(server.baseURL).origin;
  const settings = adjust(settingsSchema.parse(pageChainSettings(server, pageOrigin)));
  const storeName = uniqueDatabaseName();
  const listeners: ((port: RunServicePort) => void)[] = [];
  const context = createBackgroundContext({ openStore: () => openRunStore({ name: storeName }), loadSettings: async () => settings, watchSettings: () => () => undefined });
  installRunService({ context, connections: { addListener: (listener) => void listeners.push(listener) }, recordNotice: () => undefined, clientOptions: { maxRetries: 0 } });
  const page = new FakePageWindow(globalThis.fetch, `${pageOrigin}/chat.html`);
  wirePageToBackground(page, listeners);
  return {
    server,
    page,
    context,
    pageOrigin,
    pageClient: () => new OpenAI({ baseURL: server.baseURL, apiKey: 'page-key', maxRetries: 0, fetch: (input, init) => page.fetch(input, init) }),
    close: () => server.close(),
  };
}
