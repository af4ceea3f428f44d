import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createBackgroundContext, type BackgroundContext } from '../../../src/background/background-context';
import type { RunServicePort } from '../../../src/background/run-port-handler';
import { installRunService } from '../../../src/background/run-service';
import type { HostNotice } from '../../../src/hosts/host-adapter';
import type { AgentRun } from '../../../src/records/run';
import { settingsSchema } from '../../../src/settings/schema';
import { openRunStore } from '../../../src/store/idb-run-store';
import type { RunStep, RunStore } from '../../../src/store/run-store';
import { FakePageWindow } from '../../support/fake-page-window';
import { uniqueDatabaseName } from '../../support/record-builders';
import { startScriptedModelServer, type ScriptedModelServer, type ScriptedRequest } from '../../support/scripted-model-server';
import { wirePageToBackground } from './page-bridge-wiring';
import { pageChainSettings } from './page-chain-settings';

/**
 * Fail open (DESIGN.md §13) through the whole chat-turn chain: page hook → bridge → run port → run
 * service → runtime → the real `openai` SDK → the scripted server. When a run cannot do its job for a
 * reason of Retinue's or of the endpoint's abilities, the page's original request goes to its server
 * once, unmodified, and the run records why; errors the page would have had anyway stay errors.
 */

let settings: ReturnType<typeof settingsSchema.parse>;
const isRoot = (request: ScriptedRequest) => request.systemText.includes('[[root]]');
const isCritic = (request: ScriptedRequest) => request.systemText.includes('[[critic]]');
/** The page's own generation: neither Retinue's instructions nor its tools. */
const isPageOwn = (request: ScriptedRequest) => !isRoot(request) && !isCritic(request) && request.toolNames.length === 0;
const PLAIN_REPLY = "Mira lowers her blade. (the page's own model)";

const chat = [
  { role: 'system' as const, content: 'You are Mira, a storyteller.' },
  { role: 'user' as const, content: 'She draws her sword and faces the duke.' },
];

let server: ScriptedModelServer;
let page: FakePageWindow;
let context: BackgroundContext;
let notices: HostNotice[];
/** Set by a test to break the store the way a full disk does, once the run is under way. */
let breakStore: ((store: RunStore) => RunStore) | undefined;

beforeEach(async () => {
  server = await startScriptedModelServer();
  const pageOrigin = new URL(server.baseURL).origin;
  settings = settingsSchema.parse(pageChainSettings(server, pageOrigin));
  notices = [];
  breakStore = undefined;
  const storeName = uniqueDatabaseName();
  const listeners: ((port: RunServicePort) => void)[] = [];
  context = createBackgroundContext({
    openStore: async () => {
      const store = await openRunStore({ name: storeName });
      return breakStore ? breakStore(store) : store;
    },
    loadSettings: async () => settings,
    watchSettings: () => () => undefined,
  });
  installRunService({
    context,
    connections: { addListener: (listener) => void listeners.push(listener) },
    recordNotice: (_origin, notice) => void notices.push(notice),
    clientOptions: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 2 },
  });
  page = new FakePageWindow(globalThis.fetch, `${pageOrigin}/chat.html`);
  wirePageToBackground(page, listeners);
  server.script((request) => (isPageOwn(request) ? { content: PLAIN_REPLY } : undefined));
});

afterEach(async () => {
  await server.close();
});

function pageClient() {
  return new OpenAI({ baseURL: server.baseURL, apiKey: 'page-key', maxRetries: 0, fetch: (input, init) => page.fetch(input, init) });
}

async function onlyRun(): Promise<AgentRun | undefined> {
  const runs = await (await context.getStore()).listRuns();
  expect(runs).toHaveLength(1);
  return runs[0];
}

async function streamedText(stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>) {
  let content = '';
  let reasoning = '';
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta as { content?: string; reasoning_content?: string } | undefined;
    content += delta?.content ?? '';
    reasoning += delta?.reasoning_content ?? '';
  }
  return { content, reasoning };
}

/** The page's own request reached the server exactly once, exactly as the page sent it. */
function expectOnePageOwnRequest(sent: Record<string, unknown>): void {
  const own = server.requests.filter(isPageOwn);
  expect(own).toHaveLength(1);
  expect(own[0]?.body).toEqual(sent);
}

describe('a run that cannot do its job answers with the page’s own generation', () => {
  test.each([false, true])('an endpoint that refuses tools, native tools forced (stream: %s)', async (stream) => {
    // With the default `auto` the run would switch to the prompted protocol instead (chat-turn-chain.test.ts).
    for (const site of settings.sites) site.toolProtocol = 'native';
    server.script((request) => (request.toolNames.length > 0 ? { fault: 'status', status: 400, message: 'registry.ollama.ai/library/gemma3:4b does not support tools' } : undefined));
    const sent = { model: 'scripted-model', messages: chat, stream };

    const reply = stream
      ? (await streamedText(await pageClient().chat.completions.create({ ...sent, stream: true }))).content
      : (await pageClient().chat.completions.create({ ...sent, stream: false })).choices[0]?.message.content;

    expect(reply).toBe(PLAIN_REPLY);
    expectOnePageOwnRequest(sent);
    expect(server.requests.filter(isRoot)).toHaveLength(1);
    const run = await onlyRun();
    expect(run?.status).toBe('failed');
    expect(run?.fallback).toEqual({ code: 'tools-refused', reason: expect.stringContaining('does not support tools') as string });
  });

  test('a stream that already showed progress carries on with the page’s own answer', async () => {
    server.queue(isCritic, { toolCalls: [{ name: 'task_return', arguments: { summary: 'Slow the first exchange.', status: 'completed' } }] });
    server.queue(
      isRoot,
      { toolCalls: [{ name: 'agent_delegate', arguments: { agentId: 'scene-critic', task: { title: 'Critique the duel', objective: 'Critique it.', context: 'The duel.', expectedOutput: 'One finding.' } } }] },
      { fault: 'status', status: 422, message: "tool_choice 'auto' requires --enable-auto-tool-choice" },
    );
    const sent = { model: 'scripted-model', messages: chat, stream: true };

    const { content, reasoning } = await streamedText(await pageClient().chat.completions.create({ ...sent, stream: true }));

    expect(reasoning).toMatch(/scene-critic.*started/);
    expect(content).toBe(PLAIN_REPLY);
    expectOnePageOwnRequest(sent);
    expect((await onlyRun())?.fallback?.code).toBe('tools-refused');
  });

  test('a Retinue error (the store broke mid-run)', async () => {
    let writes = 0;
    breakStore = (store) =>
      new Proxy(store, {
        get(target, property, receiver) {
          if (property !== 'putInvocation' && property !== 'saveStep') return Reflect.get(target, property, receiver) as unknown;
          return async (...args: unknown[]) => {
            // The root's first writes of its history succeed; then the disk is full.
            const savesInvocation = property === 'putInvocation' || ((args[0] as RunStep).invocations?.length ?? 0) > 0;
            if (savesInvocation) writes += 1;
            if (writes > 2) throw new DOMException('The disk is full.', 'QuotaExceededError');
            return property === 'putInvocation'
              ? target.putInvocation(...(args as Parameters<RunStore['putInvocation']>))
              : target.saveStep(args[0] as RunStep);
          };
        },
      });
    server.queue(isRoot, { toolCalls: [{ name: 'agent_list', arguments: {} }] }, { content: 'never reached' });
    const sent = { model: 'scripted-model', messages: chat, stream: false as const };

    const completion = await pageClient().chat.completions.create(sent);

    expect(completion.choices[0]?.message.content).toBe(PLAIN_REPLY);
    expectOnePageOwnRequest(sent);
    expect((await onlyRun())?.fallback).toEqual({ code: 'retinue-error', reason: expect.stringContaining('The disk is full') as string });
  });

  test('a Retinue error before any run was stored leaves its reason as a page notice', async () => {
    breakStore = (store) =>
      new Proxy(store, {
        get(target, property, receiver) {
          const value = Reflect.get(target, property, receiver) as unknown;
          if (property !== 'putRun' && property !== 'saveStep') return value;
          // The run's first write (its record, with its snapshot and root in one step) fails.
          return (...args: unknown[]) =>
            property === 'putRun' || (args[0] as RunStep).run !== undefined
              ? Promise.reject(new DOMException('The disk is full.', 'QuotaExceededError'))
              : target.saveStep(args[0] as RunStep);
        },
      });
    const sent = { model: 'scripted-model', messages: chat, stream: true };

    const { content } = await streamedText(await pageClient().chat.completions.create({ ...sent, stream: true }));

    expect(content).toBe(PLAIN_REPLY);
    expectOnePageOwnRequest(sent);
    expect(notices).toEqual([
      { code: 'fallback-retinue-error', messageKey: 'page_notice_fallback', substitutions: [expect.stringContaining('The disk is full') as string] },
    ]);
  });
});

describe('errors the page would have had anyway stay errors', () => {
  test.each([
    [401, 'invalid api key', 502, 'answered 401'],
    [404, 'The model scripted-model does not exist', 502, 'answered 404'],
    [503, 'overloaded', 502, 'answered 503'],
  ])('a root whose model answers %i', async (status, message, pageStatus, said) => {
    server.script((request) => (isRoot(request) ? { fault: 'status', status, message } : undefined));

    const call = pageClient().chat.completions.create({ model: 'scripted-model', messages: chat, stream: false });

    await expect(call).rejects.toMatchObject({ status: pageStatus, message: expect.stringContaining(said) as string });
    expect(server.requests.filter(isPageOwn)).toEqual([]);
    const run = await onlyRun();
    expect(run?.status).toBe('failed');
    expect(run?.fallback).toBeUndefined();
    expect(notices).toEqual([]);
  });
});

describe('endpoint shapes through the page chain (host binding for the root, a connection for the critic)', () => {
  const delegateCritic = { name: 'agent_delegate', arguments: { agentId: 'scene-critic', task: { title: 'Critique the duel', objective: 'Critique it.' } } };
  const criticReturns = { toolCalls: [{ name: 'task_return', arguments: { summary: 'Slow the first exchange.', status: 'completed' } }] };
  const nativeToolMessages = (request: ScriptedRequest) =>
    request.body.messages.some((message) => message.role === 'tool' || (message.role === 'assistant' && (message.tool_calls?.length ?? 0) > 0));

  async function ask(sent: { model: string; messages: typeof chat; stream: boolean }) {
    return sent.stream
      ? (await streamedText(await pageClient().chat.completions.create({ ...sent, stream: true }))).content
      : (await pageClient().chat.completions.create({ ...sent, stream: false })).choices[0]?.message.content;
  }

  test.each([false, true])('a strict template refusing the roles of a native history falls open (stream: %s)', async (stream) => {
    server.modes.strictRoles = true;
    server.queue(isCritic, criticReturns);
    server.queue(isRoot, { toolCalls: [delegateCritic] }, { content: 'never reached' });
    const sent = { model: 'scripted-model', messages: chat, stream };

    expect(await ask(sent)).toBe(PLAIN_REPLY);
    expectOnePageOwnRequest(sent);
    expect((await onlyRun())?.fallback).toEqual({ code: 'history-refused', reason: expect.stringContaining('roles must alternate') as string });
  });

  test.each([false, true])('on a prompted endpoint with a strict template, no call carries native tool messages, the wrap-up included (stream: %s)', async (stream) => {
    // Two rounds (delegate, await), then the wrap-up that offers no tools writes the reply.
    const root = settings.profiles.find((profile) => profile.id === 'root');
    if (root) root.budget = { ...root.budget, maxRounds: 2 };
    server.modes.refuseTools = true;
    server.modes.strictRoles = true;
    server.modes.textCalls = 'hermes';
    server.queue(isCritic, criticReturns);
    server.queue(isRoot, { toolCalls: [delegateCritic] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'She slows the first exchange.' });
    const sent = { model: 'scripted-model', messages: chat, stream };

    expect(await ask(sent)).toBe('She slows the first exchange.');
    expect(server.requests.filter(isPageOwn)).toEqual([]);
    // One refusal of native tools per endpoint: the page's (host binding) and the critic's connection are two.
    const refused = server.requests.filter((request) => request.outcome === 'status');
    expect(refused.map((request) => [isRoot(request), request.toolNames.length > 0])).toEqual([[true, true], [false, true]]);
    expect(server.requests.some(nativeToolMessages)).toBe(false);
    expect((await onlyRun())?.status).toBe('completed');
  });

  test.each([false, true])('a window the refusal states costs one refusal, and the root answers (stream: %s)', async (stream) => {
    const turn = 'The rain keeps falling on the old keep and its tired guards. '.repeat(3);
    const longChat = [
      chat[0],
      ...Array.from({ length: 24 }, (_, index) => ({ role: index % 2 === 0 ? ('user' as const) : ('assistant' as const), content: `Turn ${index}: ${turn}` })),
      chat[1],
    ] as typeof chat;
    server.modes.contextWindowChars = JSON.stringify(longChat).length + 800;
    server.modes.contextWindowTokens = 2_048;
    server.script((request) => (isRoot(request) ? { content: 'The duke parries.' } : undefined));
    const sent = { model: 'scripted-model', messages: longChat, stream };

    expect(await ask(sent)).toBe('The duke parries.');
    expect(server.requests.filter((request) => request.outcome === 'status')).toHaveLength(1);
    expect(server.requests.filter(isPageOwn)).toEqual([]);
  });
});
