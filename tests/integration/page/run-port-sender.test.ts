import { afterEach, beforeEach, expect, test } from 'vitest';
import { browser } from 'wxt/browser';
import { createBackgroundContext } from '../../../src/background/background-context';
import type { RunServicePort } from '../../../src/background/run-port-handler';
import { installRunService } from '../../../src/background/run-service';
import type { BackgroundToBridgeMessage } from '../../../src/messaging/run-port-messages';
import { settingsSchema } from '../../../src/settings/schema';
import { openRunStore } from '../../../src/store/idb-run-store';
import { eventually } from '../../support/fake-run-port';
import { createPortPair } from '../../support/in-memory-run-ports';
import { uniqueDatabaseName } from '../../support/record-builders';
import { startScriptedModelServer, type ScriptedModelServer } from '../../support/scripted-model-server';
import { pageChainSettings } from './page-chain-settings';

/**
 * Only this extension's own content scripts drive runs: a run port whose sender is another extension
 * (or names no extension at all) is not served. Real run service, store and model server.
 */

let server: ScriptedModelServer;
let storeName: string;
let portListeners: ((port: RunServicePort) => void)[];
let pageOrigin: string;

beforeEach(async () => {
  server = await startScriptedModelServer();
  pageOrigin = new URL(server.baseURL).origin;
  storeName = uniqueDatabaseName();
  const settings = settingsSchema.parse(pageChainSettings(server, pageOrigin));
  const context = createBackgroundContext({ openStore: () => openRunStore({ name: storeName }), loadSettings: async () => settings, watchSettings: () => () => undefined });
  portListeners = [];
  installRunService({ context, connections: { addListener: (listener) => void portListeners.push(listener) }, recordNotice: () => undefined, clientOptions: { maxRetries: 0 } });
});

afterEach(async () => {
  await server.close();
});

/** A bridge opening a run port as `id` (undefined: a sender that names no extension) and starting a turn. */
function connectAs(id: string | undefined): BackgroundToBridgeMessage[] {
  const pair = createPortPair({ id, url: `${pageOrigin}/chat.html`, tab: { id: 1 } });
  const answers: BackgroundToBridgeMessage[] = [];
  pair.bridgeEnd.onMessage.addListener((message) => void answers.push(message as BackgroundToBridgeMessage));
  portListeners.forEach((listener) => listener(pair.backgroundEnd));
  pair.bridgeEnd.postMessage({ type: 'run-start', adapter: 'openai-chat', body: { model: 'scripted-model', stream: false, messages: [{ role: 'user', content: 'Hi' }] } });
  return answers;
}

test("a run port from another extension, or from a sender naming none, starts no run; this extension's own does", async () => {
  server.script(() => ({ content: 'The reply.' }));
  const foreign = connectAs('another-extension-id');
  const anonymous = connectAs(undefined);
  const own = connectAs(browser.runtime.id);
  await eventually(() => expect(own.map((message) => message.type)).toContain('run-accepted'));
  expect(foreign).toEqual([]);
  expect(anonymous).toEqual([]);
  const store = await openRunStore({ name: storeName });
  expect(await store.listRuns()).toHaveLength(1);
});
