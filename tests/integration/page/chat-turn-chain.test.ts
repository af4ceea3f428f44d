import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createBackgroundContext, type BackgroundContext } from '../../../src/background/background-context';
import { installRunService } from '../../../src/background/run-service';
import type { RunServicePort } from '../../../src/background/run-port-handler';
import { settingsSchema } from '../../../src/settings/schema';
import { openRunStore } from '../../../src/store/idb-run-store';
import type { HostNotice } from '../../../src/hosts/host-adapter';
import { FakePageWindow } from '../../support/fake-page-window';
import { uniqueDatabaseName } from '../../support/record-builders';
import { startScriptedModelServer, type ScriptedModelServer, type ScriptedRequest } from '../../support/scripted-model-server';
import { wirePageToBackground, type PortPair } from './page-bridge-wiring';
import { pageChainSettings } from './page-chain-settings';

/**
 * The whole chat-turn chain in Node: page hook on a page window → bridge → run port → run service →
 * the real runtime, store and model client → the scripted model server, with host-bound agents
 * calling through the page's own fetch. Only the browser's message plumbing is simulated.
 */

const isRoot = (request: ScriptedRequest) => request.systemText.includes('[[root]]');
const isCritic = (request: ScriptedRequest) => request.systemText.includes('[[critic]]');
const isChecker = (request: ScriptedRequest) => request.systemText.includes('[[checker]]');


const delegate = (agentId: string, title: string) => ({
  name: 'agent_delegate',
  arguments: { agentId, task: { title, objective: `${title}, briefly.`, context: 'The duel in the rain.', expectedOutput: 'One finding.' } },
});
const taskReturn = (summary: string) => ({ toolCalls: [{ name: 'task_return', arguments: { summary, status: 'completed' } }] });

let server: ScriptedModelServer;
let page: FakePageWindow;
let context: BackgroundContext;
let notices: HostNotice[];
let portListeners: ((port: RunServicePort) => void)[];
let portPairs: PortPair[];
let storeName: string;
let settings: ReturnType<typeof settingsSchema.parse>;

/** A background as the service worker starts it: a fresh context and run service over the same store. */
function startBackground(): BackgroundContext {
  const created = createBackgroundContext({ openStore: () => openRunStore({ name: storeName }), loadSettings: async () => settings, watchSettings: () => () => undefined });
  portListeners.length = 0;
  installRunService({
    context: created,
    connections: { addListener: (listener) => void portListeners.push(listener) },
    recordNotice: (_origin, notice) => void notices.push(notice),
    clientOptions: { maxRetries: 0 },
  });
  return created;
}

beforeEach(async () => {
  server = await startScriptedModelServer();
  const pageOrigin = new URL(server.baseURL).origin;
  settings = settingsSchema.parse(pageChainSettings(server, pageOrigin));
  storeName = uniqueDatabaseName();
  notices = [];
  portListeners = [];
  portPairs = [];
  context = startBackground();
  page = new FakePageWindow(globalThis.fetch, `${pageOrigin}/chat.html`);
  wirePageToBackground(page, portListeners, (pair) => portPairs.push(pair));
});

afterEach(async () => {
  await server.close();
});

/** The page's own OpenAI client: its requests go through the hooked fetch, with a CSRF header as SillyTavern sends. */
function pageClient() {
  return new OpenAI({
    baseURL: server.baseURL,
    apiKey: 'page-key',
    maxRetries: 0,
    defaultHeaders: { 'X-CSRF-Token': 'page-token' },
    fetch: (input, init) => page.fetch(input, init),
  });
}

/**
 * Scripts a root that delegates one critique and awaits it, with a critic whose model never answers;
 * resolves once the critic's request arrived (the run is then busy waiting on it).
 */
function scriptRootAwaitingHungCritic(): Promise<void> {
  const childStarted = new Promise<void>((resolve) =>
    server.script((request) => {
      if (!isCritic(request)) return undefined;
      resolve();
      return { fault: 'hang' };
    }),
  );
  server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique the duel')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] });
  return childStarted;
}

const chat = [
  { role: 'system' as const, content: 'You are Mira, a storyteller.' },
  { role: 'user' as const, content: 'She draws her sword and faces the duke.' },
];

describe('a chat turn from the page', () => {
  test('runs a root that delegates two tasks; the streamed reply carries what the capsules said', async () => {
    server.queue(
      isRoot,
      { toolCalls: [delegate('scene-critic', 'Critique the duel'), delegate('continuity-checker', 'Check the duel')] },
      { toolCalls: [{ name: 'agent_await', arguments: { tasks: ['scene-critic', 'continuity-checker'], mode: 'allCompleted' } }] },
      (request) => ({
        content: ['Slow the first exchange', 'No contradictions'].filter((said) => request.lastMessageText.includes(said)).join(' + '),
      }),
    );
    server.queue(isCritic, taskReturn('Slow the first exchange.'));
    server.queue(isChecker, taskReturn('No contradictions with earlier events.'));

    const stream = await pageClient().chat.completions.create({ model: 'scripted-model', messages: chat, stream: true });
    let reply = '';
    let reasoning = '';
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as { content?: string; reasoning_content?: string } | undefined;
      reply += delta?.content ?? '';
      reasoning += delta?.reasoning_content ?? '';
    }

    expect(reply).toBe('Slow the first exchange + No contradictions');
    expect(reasoning).toMatch(/scene-critic.*started/);
    expect(reasoning).not.toContain('Slow the first exchange');
    const criticBriefing = server.requests.find(isCritic)?.allText ?? '';
    expect(criticBriefing).toContain('Critique the duel');
    expect(server.requests.find(isChecker)?.allText).toContain('Check the duel');
    // Host-bound agents call through the page with its headers; the connection-bound one with its key only.
    const rootRequest = server.requests.find(isRoot);
    expect(rootRequest?.headers['x-csrf-token']).toBe('page-token');
    expect(server.requests.find(isChecker)?.headers['x-csrf-token']).toBe('page-token');
    const criticRequest = server.requests.find(isCritic);
    expect(criticRequest?.headers['authorization']).toBe('Bearer sk-local');
    expect(criticRequest?.headers['x-csrf-token']).toBeUndefined();
    expect(rootRequest?.toolNames).toContain('agent_delegate');
    const store = await context.getStore();
    const [run] = await store.listRuns();
    expect(run?.status).toBe('completed');
    // Calls to the page's own model say so apart from their English label (the side panel names them
    // in the reader's language); the critic's connection is named by its label only.
    const tasks = await store.listTasks(run?.id ?? '');
    const taskKey = new Map(tasks.map((task) => [task.id, task.workspaceKey]));
    const starts = (await store.readJournal(run?.id ?? '')).filter((event) => event.type === 'model-call-start');
    const pageModelBy = new Map(starts.map((event) => [event.taskId === undefined ? 'root' : taskKey.get(event.taskId), event.data.pageModel]));
    expect(Object.fromEntries(pageModelBy)).toEqual({ root: 'scripted-model', 'continuity-checker': 'scripted-model', 'scene-critic': undefined });
    const ranWith = new Map(tasks.map((task) => [task.workspaceKey, task.ranWith?.pageModel]));
    expect(Object.fromEntries(ranWith)).toEqual({ 'continuity-checker': 'scripted-model', 'scene-critic': undefined });
  });

  test('an endpoint that refuses tools: host-bound and connection agents switch to the prompted protocol and the turn is still delegated', async () => {
    server.modes.refuseTools = true;
    server.modes.textCalls = 'hermes';
    server.queue(
      isRoot,
      { toolCalls: [delegate('scene-critic', 'Critique the duel'), delegate('continuity-checker', 'Check the duel')] },
      { toolCalls: [{ name: 'agent_await', arguments: { tasks: ['scene-critic', 'continuity-checker'], mode: 'allCompleted' } }] },
      (request) => ({ content: ['Slow the first exchange', 'No contradictions'].filter((said) => request.lastMessageText.includes(said)).join(' + ') }),
    );
    server.queue(isCritic, taskReturn('Slow the first exchange.'));
    server.queue(isChecker, taskReturn('No contradictions with earlier events.'));

    const completion = await pageClient().chat.completions.create({ model: 'scripted-model', messages: chat, stream: false });

    expect(completion.choices[0]?.message.content).toBe('Slow the first exchange + No contradictions');
    const answered = server.requests.filter((request) => request.outcome === 'answered');
    expect(answered.every((request) => request.body.tools === undefined)).toBe(true);
    expect(answered.find(isRoot)?.headers['x-csrf-token']).toBe('page-token');
  });

  test('a host-call reply over 1 MB reaches the run intact through the page hook and the bridge', async () => {
    const long = `${'The lighthouse keeper remembers. '.repeat(45_000)}End.`;
    server.queue(isRoot, { content: long });

    const completion = await pageClient().chat.completions.create({ model: 'scripted-model', messages: chat, stream: false });

    expect(long.length).toBeGreaterThan(1_400_000);
    expect(completion.choices[0]?.message.content).toBe(long);
  });

  test("the page's other requests pass through untouched", async () => {
    const models = await pageClient().models.list();
    expect(models.data.map((model) => model.id)).toEqual(['scripted-model']);
    expect(await (await context.getStore()).listRuns()).toEqual([]);
  });

  test('a root whose model answers 401 gets the page an HTTP error it can show, not a hang', async () => {
    server.queue(isRoot, { fault: 'status', status: 401, message: 'invalid api key' });
    const call = pageClient().chat.completions.create({ model: 'scripted-model', messages: chat, stream: false });
    await expect(call).rejects.toMatchObject({ status: 502, message: expect.stringContaining('answered 401') });
    await expect(call).rejects.toMatchObject({ message: expect.stringContaining('check the API key and model set in the page itself') });
  });

  test('provider errors quoting addresses and keys reach the root and the page naming the connection by label only', async () => {
    const address = server.baseURL;
    const host = new URL(address).host;
    server.queue(
      isRoot,
      { toolCalls: [delegate('scene-critic', 'Critique the duel')] },
      { toolCalls: [{ name: 'agent_await', arguments: {} }] },
      { fault: 'status', status: 400, message: `Bad request to ${address}/chat/completions?session=run-42 from ${host}` },
    );
    server.script((request) =>
      isCritic(request) ? { fault: 'status', status: 401, message: `Key sk-local is not valid for ${address}/chat/completions (connection local)` } : undefined,
    );

    const call = pageClient().chat.completions.create({ model: 'scripted-model', messages: chat, stream: false });
    const pageError = await call.then(
      () => '',
      (error: unknown) => String((error as Error).message),
    );

    // The root read the failed capsule in its await result, through the page (a host call).
    const rootRead = server.requests.filter(isRoot)[2]?.allText ?? '';
    expect(rootRead).toContain('scene-critic — failed');
    expect(rootRead).toContain('401');
    expect(pageError).toContain('400');
    for (const [reader, text] of [['the root', rootRead], ['the page', pageError]] as const) {
      expect(text, reader).not.toContain(host);
      expect(text, reader).not.toContain('127.0.0.1');
      expect(text, reader).not.toContain('sk-local');
      expect(text, reader).not.toContain("connection 'local'");
    }
    expect(rootRead).toContain('a connection without a label');
  });

  test('the page aborting its fetch cancels the run and its children', async () => {
    const childStarted = scriptRootAwaitingHungCritic();
    const controller = new AbortController();
    const stream = await pageClient().chat.completions.create({ model: 'scripted-model', messages: chat, stream: true }, { signal: controller.signal });
    await childStarted;
    controller.abort();
    const drained = (async () => {
      for await (const _chunk of stream) {
        // The stream ends (or throws) once the page aborted.
      }
    })();
    await drained.catch(() => undefined);
    const store = await context.getStore();
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const [run] = await store.listRuns();
      if (run?.status === 'cancelled') break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const [run] = await store.listRuns();
    expect(run?.status).toBe('cancelled');
    const tasks = await store.listTasks(run?.id ?? '');
    expect(tasks.map((task) => task.status)).toEqual(['cancelled']);
  });

  test("the host-bound root's reply streams into the page as the model writes it; Stop stops the model call", async () => {
    const reply = Array.from({ length: 30 }, (_, index) => `Drop ${index} falls.`).join(' ');
    server.queue(isRoot, { content: reply, slowly: { pieces: 30, delayMs: 30 } });
    const controller = new AbortController();
    const stream = await pageClient().chat.completions.create({ model: 'scripted-model', messages: chat, stream: true }, { signal: controller.signal });
    const shown: string[] = [];
    await (async () => {
      for await (const chunk of stream) {
        const content = chunk.choices[0]?.delta.content;
        if (content) shown.push(content);
        if (shown.length === 10) controller.abort();
      }
    })().catch(() => undefined);

    expect(shown).toHaveLength(10);
    expect(reply.startsWith(shown.join(''))).toBe(true);
    const rootRequest = server.requests.find(isRoot);
    for (let attempt = 0; attempt < 200 && rootRequest?.outcome === 'pending'; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(rootRequest?.outcome).toBe('client-closed');
    expect(rootRequest?.contentWrittenAt.length).toBeLessThan(25);
  });

  test('a root on a connection streams its reply into the page the same way', async () => {
    const document = pageChainSettings(server, new URL(server.baseURL).origin);
    const root = document.profiles?.find((profile) => profile.id === 'root');
    if (root) root.model = { binding: 'connection', connectionId: 'local' };
    settings = settingsSchema.parse(document);
    const reply = Array.from({ length: 12 }, (_, index) => `Gust ${index} howls.`).join(' ');
    server.queue(isRoot, { content: reply, slowly: { pieces: 12, delayMs: 20 } });
    const stream = await pageClient().chat.completions.create({ model: 'scripted-model', messages: chat, stream: true });
    const shown: string[] = [];
    for await (const chunk of stream) {
      const content = chunk.choices[0]?.delta.content;
      if (content) shown.push(content);
    }

    expect(shown.join('')).toBe(reply);
    expect(shown.length).toBeGreaterThanOrEqual(8);
    expect(server.requests.find(isRoot)?.headers['authorization']).toBe('Bearer sk-local');
  });

  test('a non-streamed page request gets the whole reply as JSON at the end', async () => {
    server.queue(isRoot, { content: 'The whole reply, at once.', slowly: { pieces: 8, delayMs: 5 } });
    const completion = await pageClient().chat.completions.create({ model: 'scripted-model', messages: chat, stream: false });
    expect(completion.choices[0]?.message.content).toBe('The whole reply, at once.');
  });

  test('a SillyTavern source Retinue cannot speak goes to the server untouched, with a notice', async () => {
    const response = await page.fetch(`${new URL(server.baseURL).origin}/api/backends/chat-completions/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'normal', messages: chat, stream: false, chat_completion_source: 'cohere' }),
    });
    expect(notices).toEqual([{ code: 'unsupported-source', messageKey: 'page_notice_unsupported_source', substitutions: ['cohere'] }]);
    // The scripted server has no SillyTavern route: its own 404 proves the request reached it untouched.
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('No route POST /api/backends/chat-completions/generate');
    expect(await (await context.getStore()).listRuns()).toEqual([]);
  });

  test('a run cancelled from the side panel answers the page with a short "cancelled" error', async () => {
    const childStarted = scriptRootAwaitingHungCritic();
    const call = pageClient().chat.completions.create({ model: 'scripted-model', messages: chat, stream: false });
    await childStarted;
    const [run] = await (await context.getStore()).listRuns();
    context.cancelRun(run?.id ?? '', 'Cancelled in the side panel.');
    await expect(call).rejects.toMatchObject({ status: 499, message: expect.stringContaining('cancelled') });
  });

  test('when the service worker restarts mid-run the bridge reconnects and the run resumes from the store', async () => {
    let releaseCritic: () => void = () => undefined;
    const criticMayAnswer = new Promise<void>((resolve) => (releaseCritic = resolve));
    let criticCalls = 0;
    const criticStarted = new Promise<void>((resolve) =>
      server.script(async (request) => {
        if (!isCritic(request)) return undefined;
        criticCalls += 1;
        resolve();
        await criticMayAnswer;
        return taskReturn('Slow the first exchange.');
      }),
    );
    server.queue(
      isRoot,
      { toolCalls: [delegate('scene-critic', 'Critique the duel')] },
      { toolCalls: [{ name: 'agent_await', arguments: {} }] },
      { toolCalls: [{ name: 'agent_await', arguments: {} }] },
      (request) => ({ content: request.allText.includes('Slow the first exchange') ? 'Resumed with the critique.' : 'Resumed without it.' }),
    );
    const call = pageClient().chat.completions.create({ model: 'scripted-model', messages: chat, stream: false });
    await criticStarted;
    // The browser stops the worker: the runtime stops where it stands, its ports drop.
    await (await context.getRuntime()).shutdown();
    context = startBackground();
    portPairs.forEach((pair) => pair.stopBackground());
    releaseCritic();
    const completion = await call;
    expect(completion.choices[0]?.message.content).toBe('Resumed with the critique.');
    expect(criticCalls).toBeGreaterThanOrEqual(1);
    const [run] = await (await context.getStore()).listRuns();
    expect(run?.status).toBe('completed');
    const journal = await (await context.getStore()).readJournal(run?.id ?? '');
    expect(journal.map((event) => event.type)).toContain('run-resume');
  });
});
