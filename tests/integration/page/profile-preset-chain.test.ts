import OpenAI from 'openai';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createBackgroundContext, type BackgroundContext } from '../../../src/background/background-context';
import { installRunService } from '../../../src/background/run-service';
import type { RunServicePort } from '../../../src/background/run-port-handler';
import { settingsSchema, type ModelBinding, type Settings } from '../../../src/settings/schema';
import { openRunStore } from '../../../src/store/idb-run-store';
import { FakePageWindow } from '../../support/fake-page-window';
import { uniqueDatabaseName } from '../../support/record-builders';
import { startScriptedModelServer, type ScriptedModelServer, type ScriptedRequest } from '../../support/scripted-model-server';
import { wirePageToBackground } from './page-bridge-wiring';
import { pageChainSettings } from './page-chain-settings';

/**
 * Helpers on SillyTavern connection profiles write with their profile's completion preset, read in
 * the page through `getContext().getPresetManager('openai')` (shaped from SillyTavern 1.18's facts),
 * never with the preset the page has open for the chat, and the task records what each ran with.
 */

const isRoot = (request: ScriptedRequest) => request.systemText.includes('[[root]]');
const isCritic = (request: ScriptedRequest) => request.systemText.includes('[[critic]]');
const isChecker = (request: ScriptedRequest) => request.systemText.includes('[[checker]]');
const delegate = (agentId: string) => ({ name: 'agent_delegate', arguments: { agentId, task: { title: `Ask ${agentId}`, objective: 'One finding.' } } });
const taskReturn = (summary: string) => ({ toolCalls: [{ name: 'task_return', arguments: { summary, status: 'completed' } }] });

/** Chat Completion presets as SillyTavern keeps them: their file's keys, and prompts Retinue leaves alone. */
const PRESETS: Record<string, Record<string, unknown>> = {
  'Cold critic': { temperature: 0.05, top_p: 0.4, frequency_penalty: 0.1, presence_penalty: 0, openai_max_tokens: 320, seed: 42, prompts: [{ identifier: 'main', content: '[[preset prompt]]' }] },
  'Hot brainstorm': { temperature: 1.6, top_p: 0.98, top_k: 80, min_p: 0.02, repetition_penalty: 1.2, openai_max_tokens: 900, seed: -1 },
};

let server: ScriptedModelServer;
let page: FakePageWindow;
let context: BackgroundContext;
let settings: Settings;
let presets: Record<string, Record<string, unknown>>;

function giveThePageProfilesAndPresets(target: FakePageWindow): void {
  const profiles = [
    { id: 'p-1', mode: 'cc', name: 'Critic profile', api: 'custom', model: 'small-critic', preset: 'Cold critic', 'api-url': server.baseURL, 'secret-id': 's-1' },
    { id: 'p-2', mode: 'cc', name: 'Checker profile', api: 'openrouter', model: 'wide-checker', preset: 'Hot brainstorm', 'secret-id': 's-2' },
  ];
  const manager = {
    getPresetList: () => ({ presets: Object.values(presets), preset_names: Object.fromEntries(Object.keys(presets).map((name, index) => [name, index])) }),
    getCompletionPresetByName: (name: string) => presets[name],
  };
  Object.assign(target, {
    SillyTavern: {
      getContext: () => ({
        extensionSettings: { disabledExtensions: [], connectionManager: { selectedProfile: null, profiles } },
        CONNECT_API_MAP: { custom: { selected: 'openai', source: 'custom' }, openrouter: { selected: 'openai', source: 'openrouter' } },
        getPresetManager: (api: string) => (api === 'openai' ? manager : null),
      }),
    },
  });
}

function withBindings(critic: ModelBinding, checker: ModelBinding): Settings {
  const document = settingsSchema.parse(pageChainSettings(server, new URL(server.baseURL).origin));
  const profiles = document.profiles.map((profile) =>
    profile.id === 'scene-critic' ? { ...profile, model: critic } : profile.id === 'continuity-checker' ? { ...profile, model: checker } : profile,
  );
  return { ...document, profiles };
}

beforeEach(async () => {
  server = await startScriptedModelServer();
  presets = { ...PRESETS };
  settings = withBindings({ binding: 'hostProfile', profileName: 'Critic profile' }, { binding: 'hostProfile', profileName: 'Checker profile' });
  const storeName = uniqueDatabaseName();
  const listeners: ((port: RunServicePort) => void)[] = [];
  context = createBackgroundContext({ openStore: () => openRunStore({ name: storeName }), loadSettings: async () => settings, watchSettings: () => () => undefined });
  installRunService({ context, connections: { addListener: (listener) => void listeners.push(listener) }, recordNotice: () => undefined, clientOptions: { maxRetries: 0 } });
  page = new FakePageWindow(globalThis.fetch, `${new URL(server.baseURL).origin}/chat.html`);
  giveThePageProfilesAndPresets(page);
  wirePageToBackground(page, listeners);
});

afterEach(async () => {
  await server.close();
});

/** A chat turn with the page's open preset in its body, as SillyTavern sends one. */
async function chatTurn(): Promise<string> {
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'page-key', maxRetries: 0, fetch: (input, init) => page.fetch(input, init) });
  const body = { model: 'page-model', messages: [{ role: 'user' as const, content: 'The duel in the rain.' }], temperature: 0.93, top_p: 0.61, max_tokens: 4000, presence_penalty: 0.7, frequency_penalty: 0.6 };
  const completion = await client.chat.completions.create(body);
  return completion.choices[0]?.message.content ?? '';
}

function scriptRootDelegatingBoth(): void {
  server.queue(
    isRoot,
    { toolCalls: [delegate('scene-critic'), delegate('continuity-checker')] },
    { toolCalls: [{ name: 'agent_await', arguments: { tasks: ['scene-critic', 'continuity-checker'], mode: 'allCompleted' } }] },
    (request) => ({ content: request.lastMessageText.includes('failed') ? 'One failed.' : 'Both answered.' }),
  );
  server.script((request) => (isCritic(request) ? taskReturn('Slow it down.') : isChecker(request) ? taskReturn('No contradictions.') : undefined));
}

async function tasksOfTheRun() {
  const store = await context.getStore();
  const [run] = await store.listRuns();
  return store.listTasks(run!.id);
}

test("two helpers on two profiles send, each, their own profile preset's samplers and none of the page's", async () => {
  scriptRootDelegatingBoth();

  expect(await chatTurn()).toBe('Both answered.');

  const critic = server.requests.find(isCritic)?.body;
  expect(critic).toMatchObject({ model: 'small-critic', chat_completion_source: 'custom', temperature: 0.05, top_p: 0.4, frequency_penalty: 0.1, presence_penalty: 0, max_tokens: 320, seed: 42 });
  const checker = server.requests.find(isChecker)?.body;
  expect(checker).toMatchObject({ model: 'wide-checker', chat_completion_source: 'openrouter', temperature: 1.6, top_p: 0.98, top_k: 80, min_p: 0.02, repetition_penalty: 1.2, max_tokens: 900 });
  expect(checker).not.toHaveProperty('seed');
  expect(checker).not.toHaveProperty('presence_penalty');
  // The preset's prompts are not the helper's.
  expect(JSON.stringify(critic)).not.toContain('[[preset prompt]]');
  expect(server.requests.find(isRoot)?.body).toMatchObject({ temperature: 0.93, top_p: 0.61 });
});

test('the agent’s own sampling goes over its profile’s preset, and what the source does not take is dropped and recorded', async () => {
  settings = withBindings(
    { binding: 'hostProfile', profileName: 'Critic profile', sampling: { temperature: 0, top_k: 10 } },
    { binding: 'hostProfile', profileName: 'Checker profile' },
  );
  scriptRootDelegatingBoth();

  await chatTurn();

  const critic = server.requests.find(isCritic)?.body;
  expect(critic).toMatchObject({ temperature: 0, top_p: 0.4, max_tokens: 320 });
  expect(critic).not.toHaveProperty('top_k');
  const tasks = await tasksOfTheRun();
  expect(tasks.find((task) => task.targetProfileId === 'scene-critic')?.ranWith).toEqual({
    model: 'small-critic',
    preset: 'Cold critic',
    sampling: { temperature: 0, top_p: 0.4, frequency_penalty: 0.1, presence_penalty: 0, max_tokens: 320, seed: 42 },
    dropped: ['top_k'],
  });
  expect(tasks.find((task) => task.targetProfileId === 'continuity-checker')?.ranWith).toMatchObject({ model: 'wide-checker', preset: 'Hot brainstorm', dropped: [] });
});

test('a profile whose preset is gone fails that task with a message naming the preset; the other helper answers', async () => {
  delete presets['Hot brainstorm'];
  scriptRootDelegatingBoth();

  expect(await chatTurn()).toBe('One failed.');

  expect(server.requests.filter(isChecker)).toEqual([]);
  const checker = (await tasksOfTheRun()).find((task) => task.targetProfileId === 'continuity-checker');
  expect(checker?.status).toBe('failed');
  expect(checker?.error?.message).toContain('SillyTavern connection profile “Checker profile” uses the completion preset “Hot brainstorm”, which SillyTavern does not have');
});

test('a helper on a keyed connection records its model and the sampling it sent, without the fields OpenAI-compatible endpoints do not take', async () => {
  settings = withBindings({ binding: 'connection', connectionId: 'local', sampling: { temperature: 0.2, min_p: 0.1 } }, { binding: 'hostProfile', profileName: 'Checker profile' });
  scriptRootDelegatingBoth();

  await chatTurn();

  expect(server.requests.find(isCritic)?.body).not.toHaveProperty('min_p');
  const critic = (await tasksOfTheRun()).find((task) => task.targetProfileId === 'scene-critic');
  expect(critic?.ranWith).toEqual({ model: expect.stringContaining('scripted-model') as string, sampling: { temperature: 0.2, top_p: 0.61, frequency_penalty: 0.6, presence_penalty: 0.7 }, dropped: ['min_p'] });
});
