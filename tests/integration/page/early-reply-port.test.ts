import { afterEach, beforeEach, expect, test } from 'vitest';
import { createBackgroundContext, type BackgroundContext } from '../../../src/background/background-context';
import { serveRunPort } from '../../../src/background/run-port-handler';
import { createRunRateLimit } from '../../../src/background/run-rate-limit';
import type { BackgroundToBridgeMessage, BridgeToBackgroundMessage } from '../../../src/messaging/run-port-messages';
import { settingsSchema, type Settings } from '../../../src/settings/schema';
import { openRunStore } from '../../../src/store/idb-run-store';
import { eventually } from '../../support/fake-run-port';
import { createPortPair } from '../../support/in-memory-run-ports';
import { uniqueDatabaseName } from '../../support/record-builders';
import { startScriptedModelServer, type ScriptedModelServer } from '../../support/scripted-model-server';

/** The background's end of a run port when the site has a reply deadline (profiles bound to a connection). */
const pageOrigin = 'http://127.0.0.1:8000';
let server: ScriptedModelServer;
let context: BackgroundContext;
let settings: Settings;
let storeName: string;

beforeEach(async () => {
  server = await startScriptedModelServer();
  settings = settingsSchema.parse({
    version: 1,
    connections: [{ id: 'local', baseURL: server.baseURL, defaultModel: 'scripted-model' }],
    profiles: [
      { id: 'root', name: 'Writer', description: 'Writes.', systemPrompt: '[[root]] Write.', model: { binding: 'connection', connectionId: 'local' }, tools: { allow: ['agent.delegate', 'agent.await'] }, delegation: { canDelegate: true, callable: false } },
      { id: 'scene-critic', name: 'Critic', description: 'Critiques.', systemPrompt: '[[critic]] Critique.', model: { binding: 'connection', connectionId: 'local' } },
    ],
    sites: [{ origin: pageOrigin, enabled: true, replyDeadlineMs: 1_500 }],
  });
  storeName = uniqueDatabaseName();
  context = createBackgroundContext({ openStore: () => openRunStore({ name: storeName }), loadSettings: async () => settings, watchSettings: () => () => undefined });
});
afterEach(async () => {
  await server.close();
});

test('at the deadline the page gets its reply at once; the page going away then does not stop the helper, and the run ends after it', async () => {
  const pair = createPortPair({ url: `${pageOrigin}/chat`, tab: { id: 1 } });
  const received: BackgroundToBridgeMessage[] = [];
  pair.bridgeEnd.onMessage.addListener((message) => void received.push(message as BackgroundToBridgeMessage));
  serveRunPort(pair.backgroundEnd, { context, recordNotice: () => undefined, clientOptions: { maxRetries: 0 }, connectionLimiters: new Map(), runRateLimit: createRunRateLimit() });
  server.queue(
    '[[root]]',
    { toolCalls: [{ name: 'agent_delegate', arguments: { agentId: 'scene-critic', task: { title: 'Critique', objective: 'Critique it.' } } }] },
    { toolCalls: [{ name: 'agent_await', arguments: {} }] },
    { content: 'Reply at the deadline.' },
  );
  let pageGone: () => void = () => undefined;
  const gone = new Promise<void>((resolve) => (pageGone = resolve));
  server.script(async (request) => {
    if (!request.systemText.includes('[[critic]]')) return undefined;
    await gone;
    return { toolCalls: [{ name: 'task_return', arguments: { summary: 'Finished after the reply.' } }] };
  });
  const start: BridgeToBackgroundMessage = { type: 'run-start', adapter: 'openai-chat', body: { model: 'm', stream: false, messages: [{ role: 'user', content: 'Hi' }] } };
  pair.bridgeEnd.postMessage(start);

  await eventually(() => expect(received).toContainEqual(expect.objectContaining({ type: 'run-reply', reply: 'Reply at the deadline.', helpersWorking: 1 })), 2_000);
  pair.bridgeEnd.disconnect();
  pageGone();

  const store = await context.getStore();
  // The run ends once its helper has (the test's own timeout catches a run that never does).
  while ((await store.listRuns())[0]?.status === 'running') await new Promise((resolve) => setTimeout(resolve, 20));
  const [run] = await store.listRuns();
  expect(run?.status).toBe('completed');
  // The page already went away: nothing more is sent, in particular no second reply.
  expect(received.filter((message) => message.type === 'run-reply')).toHaveLength(1);
  expect(run?.reply).toBe('Reply at the deadline.');
  const [task] = await store.listTasks(run?.id ?? '');
  expect(task?.status).toBe('completed');
}, 20_000);

test('a run resumed after the worker stopped keeps its deadline: the reconnected page gets its reply while the helper still works', async () => {
  const serve = (backgroundContext: BackgroundContext, message: BridgeToBackgroundMessage) => {
    const pair = createPortPair({ url: `${pageOrigin}/chat`, tab: { id: 1 } });
    const received: BackgroundToBridgeMessage[] = [];
    pair.bridgeEnd.onMessage.addListener((incoming) => void received.push(incoming as BackgroundToBridgeMessage));
    serveRunPort(pair.backgroundEnd, { context: backgroundContext, recordNotice: () => undefined, clientOptions: { maxRetries: 0 }, connectionLimiters: new Map(), runRateLimit: createRunRateLimit() });
    pair.bridgeEnd.postMessage(message);
    return received;
  };
  server.queue(
    '[[root]]',
    { toolCalls: [{ name: 'agent_delegate', arguments: { agentId: 'scene-critic', task: { title: 'Critique', objective: 'Critique it.' } } }] },
    { toolCalls: [{ name: 'agent_await', arguments: {} }] },
    { content: 'Reply at the deadline, after a restart.' },
  );
  let criticCalls = 0;
  let criticAsked: () => void = () => undefined;
  const asked = new Promise<void>((resolve) => (criticAsked = resolve));
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  server.script(async (request) => {
    if (!request.systemText.includes('[[critic]]')) return undefined;
    criticCalls += 1;
    if (criticCalls === 1) {
      criticAsked();
      return { fault: 'hang' };
    }
    await released;
    return { toolCalls: [{ name: 'task_return', arguments: { summary: 'Finished after the reply.' } }] };
  });
  const first = serve(context, { type: 'run-start', adapter: 'openai-chat', body: { model: 'm', stream: false, messages: [{ role: 'user', content: 'Hi' }] } });
  await eventually(() => expect(first).toContainEqual(expect.objectContaining({ type: 'run-accepted' })), 2_000);
  const accepted = first.find((message) => message.type === 'run-accepted') as { runId: string };
  await asked;
  // The browser stops the worker before the deadline; a new one picks the run up when the page reconnects.
  await (await context.getRuntime()).shutdown();
  const restarted = createBackgroundContext({ openStore: () => openRunStore({ name: storeName }), loadSettings: async () => settings, watchSettings: () => () => undefined });

  const resumed = serve(restarted, { type: 'run-resume', runId: accepted.runId });

  await eventually(() => expect(resumed).toContainEqual(expect.objectContaining({ type: 'run-reply', reply: 'Reply at the deadline, after a restart.', helpersWorking: 1 })), 5_000);
  const store = await restarted.getStore();
  expect((await store.listTasks(accepted.runId))[0]?.status).toBe('running');
  release();
  while ((await store.getRun(accepted.runId))?.status === 'running') await new Promise((resolve) => setTimeout(resolve, 20));
  expect((await store.getRun(accepted.runId))?.status).toBe('completed');
  expect(resumed.filter((message) => message.type === 'run-reply')).toHaveLength(1);
}, 20_000);
