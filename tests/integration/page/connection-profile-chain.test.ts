import OpenAI from 'openai';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createBackgroundContext, type BackgroundContext } from '../../../src/background/background-context';
import { installRunService } from '../../../src/background/run-service';
import type { RunServicePort } from '../../../src/background/run-port-handler';
import { settingsSchema, type Settings } from '../../../src/settings/schema';
import { openRunStore } from '../../../src/store/idb-run-store';
import { FakePageWindow } from '../../support/fake-page-window';
import { uniqueDatabaseName } from '../../support/record-builders';
import { startScriptedModelServer, type ScriptedModelServer, type ScriptedRequest } from '../../support/scripted-model-server';
import { wirePageToBackground } from './page-bridge-wiring';
import { pageChainSettings } from './page-chain-settings';

/**
 * `hostProfile` bindings through the whole chain in Node: the page hook finds the connection profile
 * in the page's `SillyTavern.getContext()` (shaped from SillyTavern 1.18's facts), runs the call with
 * the page's fetch and headers, and a profile the page no longer has fails only its task.
 */

const isRoot = (request: ScriptedRequest) => request.systemText.includes('[[root]]');
const isCritic = (request: ScriptedRequest) => request.systemText.includes('[[critic]]');
const isChecker = (request: ScriptedRequest) => request.systemText.includes('[[checker]]');
const delegate = (agentId: string) => ({ name: 'agent_delegate', arguments: { agentId, task: { title: `Ask ${agentId}`, objective: 'One finding.' } } });
const taskReturn = (summary: string) => ({ toolCalls: [{ name: 'task_return', arguments: { summary, status: 'completed' } }] });

let server: ScriptedModelServer;
let page: FakePageWindow;
let context: BackgroundContext;
let settings: Settings;

/** The page's Connection Manager as SillyTavern 1.18 exposes it to page scripts. */
function giveThePageConnectionProfiles(target: FakePageWindow): void {
  const profiles = [
    { id: 'b7e0-0001', mode: 'cc', name: 'Cheap helper', api: 'custom', model: 'cheap-model', proxy: 'None', 'api-url': server.baseURL, 'secret-id': 'secret-cheap' },
    { id: 'b7e0-0002', mode: 'cc', name: 'Through a proxy', api: 'openai', model: 'gpt-4o-mini', proxy: 'My proxy' },
  ];
  Object.assign(target, {
    SillyTavern: {
      getContext: () => ({
        extensionSettings: { disabledExtensions: [], connectionManager: { selectedProfile: null, profiles } },
        CONNECT_API_MAP: { custom: { selected: 'openai', source: 'custom' }, openai: { selected: 'openai', source: 'openai' } },
      }),
    },
  });
}

function withCheckerOn(profileName: string): Settings {
  const document = settingsSchema.parse(pageChainSettings(server, new URL(server.baseURL).origin));
  const profiles = document.profiles.map((profile) =>
    profile.id === 'continuity-checker' ? { ...profile, model: { binding: 'hostProfile' as const, profileName } } : profile,
  );
  return { ...document, profiles };
}

beforeEach(async () => {
  server = await startScriptedModelServer();
  const pageOrigin = new URL(server.baseURL).origin;
  settings = withCheckerOn('Cheap helper');
  const storeName = uniqueDatabaseName();
  const listeners: ((port: RunServicePort) => void)[] = [];
  context = createBackgroundContext({ openStore: () => openRunStore({ name: storeName }), loadSettings: async () => settings, watchSettings: () => () => undefined });
  installRunService({ context, connections: { addListener: (listener) => void listeners.push(listener) }, recordNotice: () => undefined, clientOptions: { maxRetries: 0 } });
  page = new FakePageWindow(globalThis.fetch, `${pageOrigin}/chat.html`);
  giveThePageConnectionProfiles(page);
  wirePageToBackground(page, listeners);
});

afterEach(async () => {
  await server.close();
});

async function chatTurn(): Promise<string> {
  const client = new OpenAI({
    baseURL: server.baseURL,
    apiKey: 'page-key',
    maxRetries: 0,
    defaultHeaders: { 'X-CSRF-Token': 'page-token' },
    fetch: (input, init) => page.fetch(input, init),
  });
  const completion = await client.chat.completions.create({ model: 'page-model', messages: [{ role: 'user', content: 'The duel in the rain.' }] });
  return completion.choices[0]?.message.content ?? '';
}

function scriptRootDelegatingBoth(): void {
  server.queue(
    isRoot,
    { toolCalls: [delegate('scene-critic'), delegate('continuity-checker')] },
    { toolCalls: [{ name: 'agent_await', arguments: { tasks: ['scene-critic', 'continuity-checker'], mode: 'allCompleted' } }] },
    (request) => ({ content: request.lastMessageText.includes('No contradictions') ? 'Both answered.' : 'Only the critic answered.' }),
  );
  server.queue(isCritic, taskReturn('Slow the first exchange.'));
  server.script((request) => (isChecker(request) ? taskReturn('No contradictions.') : undefined));
}

test("a helper bound to a connection profile calls with that profile's model, source and secret id, with the page's headers and no key", async () => {
  scriptRootDelegatingBoth();

  const reply = await chatTurn();

  expect(reply).toBe('Both answered.');
  const checker = server.requests.find(isChecker);
  expect(checker?.body).toMatchObject({ model: 'cheap-model', chat_completion_source: 'custom', secret_id: 'secret-cheap', custom_url: server.baseURL });
  expect(checker?.headers['x-csrf-token']).toBe('page-token');
  expect(JSON.stringify(checker?.body)).not.toContain('b7e0-0001');
  expect(server.requests.find(isRoot)?.body.model).toBe('page-model');
});

test('a profile the page no longer has fails that task with a message naming it; the run goes on and the other helper answers', async () => {
  settings = withCheckerOn('Deleted helper');
  scriptRootDelegatingBoth();

  const reply = await chatTurn();

  expect(reply).toBe('Only the critic answered.');
  expect(server.requests.filter(isChecker)).toEqual([]);
  const store = await context.getStore();
  const [run] = await store.listRuns();
  expect(run?.status).toBe('completed');
  const tasks = await store.listTasks(run!.id);
  const checker = tasks.find((task) => task.targetProfileId === 'continuity-checker');
  expect(checker?.status).toBe('failed');
  expect(checker?.error?.message).toContain('SillyTavern has no connection profile named “Deleted helper”');
  expect(checker?.error?.message).not.toContain('b7e0');
  expect(tasks.find((task) => task.targetProfileId === 'scene-critic')?.status).toBe('completed');
});

test('a profile behind a reverse-proxy preset is refused by name, without a model call', async () => {
  settings = withCheckerOn('Through a proxy');
  scriptRootDelegatingBoth();

  expect(await chatTurn()).toBe('Only the critic answered.');
  const store = await context.getStore();
  const [run] = await store.listRuns();
  const checker = (await store.listTasks(run!.id)).find((task) => task.targetProfileId === 'continuity-checker');
  expect(checker?.error?.message).toContain('SillyTavern connection profile “Through a proxy” sends its requests through a reverse-proxy preset');
  expect(server.requests.filter(isChecker)).toEqual([]);
});
