/**
 * Every endpoint shape gets one protocol and one refusal at most (issue 22 items 2–4, issue 20
 * case 10): a prompted endpoint is prompted on every call, a strict template's refusal falls open,
 * a stated window is fitted after one refusal (and remembered), `stream_options` is dropped once
 * refused, and trimming never drops a child's briefing.
 */
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createModelClient } from '../../../src/model/create-model-client';
import { createStoredToolProtocolMemory, type KeyValueStorage } from '../../../src/model/tool-protocol-memory';
import type { ReplyStreamEvent } from '../../../src/runtime/reply-stream';
import type { ScriptedRequest } from '../../support/scripted-model-server';
import { delegateCritic, isCritic, isRoot, snapshot, startHarness, testProfiles, type Harness } from './runtime-harness';

let harness: Harness;
afterEach(async () => {
  await harness.close();
});

const awaitAll = { name: 'agent_await', arguments: {} };
const listWorkspace = { name: 'workspace_list', arguments: {} };
const criticReturns = { name: 'task_return', arguments: { summary: 'Slow the first exchange.', confidence: 'high' } };

/** Whether a request carries native tool messages: assistant `tool_calls` or `role: "tool"`. */
function carriesNativeToolMessages(request: ScriptedRequest): boolean {
  return request.body.messages.some((message: ChatCompletionMessageParam) => message.role === 'tool' || (message.role === 'assistant' && (message.tool_calls?.length ?? 0) > 0));
}

const refusals = () => harness.server.requests.filter((request) => request.outcome === 'status');

/** Starts a run, streamed (the page listens to the reply stream) or not. */
function startRun(streamed: boolean, start: Parameters<Harness['start']>[0] = {}) {
  const events: ReplyStreamEvent[] = [];
  return harness.start({
    snapshot: { ...snapshot, stream: streamed },
    ...(streamed ? { onReplyStream: (event: ReplyStreamEvent) => void events.push(event) } : {}),
    ...start,
  });
}

describe.each([true, false])('an endpoint in the prompted protocol (streamed: %s)', (streamed) => {
  beforeEach(async () => {
    harness = await startHarness({ profiles: testProfiles({ root: { budget: { maxRounds: 2, maxToolCalls: 16 } } }) });
    harness.server.modes.refuseTools = true;
    harness.server.modes.textCalls = 'hermes';
  });

  test("the root's wrap-up at its round cap, which offers no tools, still gets the history as text", async () => {
    harness.server.queue(isRoot, { toolCalls: [listWorkspace] }, { toolCalls: [listWorkspace] }, { content: 'The duke parries.' });

    const actual = await startRun(streamed);

    expect(actual.run.status).toBe('completed');
    expect(actual.reply).toBe('The duke parries.');
    const wrapUp = harness.server.requests.filter(isRoot).at(-1);
    expect(wrapUp?.toolNames).toEqual([]);
    expect(wrapUp?.allText).toContain('<tool_response name="workspace_list">');
    expect(harness.server.requests.filter((request) => request.outcome === 'answered').some(carriesNativeToolMessages)).toBe(false);
  });

  test('a strict template sees alternating turns on every call, the wrap-up included, and the run needs one refusal', async () => {
    harness.server.modes.strictRoles = true;
    harness.server.queue(isRoot, { toolCalls: [delegateCritic] }, { toolCalls: [awaitAll] }, { content: 'The duke parries.' });
    harness.server.queue(isCritic, { toolCalls: [criticReturns] });

    const actual = await startRun(streamed);

    expect(actual.run.status).toBe('completed');
    expect(actual.reply).toBe('The duke parries.');
    // The one refusal is the first call's native `tools`; nothing is refused for its roles.
    expect(refusals().map((request) => request.toolNames.length > 0)).toEqual([true]);
  });

  test('a later run (and its child) start prompted, the wrap-up included', async () => {
    harness.server.queue(isRoot, { content: 'First.' });
    await startRun(streamed);
    harness.server.reset();
    harness.server.queue(isRoot, { toolCalls: [delegateCritic] }, { toolCalls: [awaitAll] }, { content: 'Second.' });
    harness.server.queue(isCritic, { toolCalls: [criticReturns] });

    const actual = await startRun(streamed);

    expect(actual.reply).toBe('Second.');
    expect(refusals()).toEqual([]);
    expect(harness.server.requests.some((request) => request.body.tools !== undefined || carriesNativeToolMessages(request))).toBe(false);
  });
});

describe('a prompted endpoint across a retry and a worker restart', () => {
  beforeEach(async () => {
    harness = await startHarness({ profiles: testProfiles({ root: { budget: { maxRounds: 2, maxToolCalls: 16 } } }) });
    harness.server.modes.refuseTools = true;
    harness.server.modes.textCalls = 'hermes';
  });

  test('a wrap-up retried after a 503 is sent as text again', async () => {
    harness.server.queue(isRoot, { toolCalls: [listWorkspace] }, { toolCalls: [listWorkspace] }, { fault: 'status', status: 503, message: 'busy' }, { content: 'The duke parries.' });

    const actual = await harness.start();

    expect(actual.reply).toBe('The duke parries.');
    expect(harness.server.requests.filter((request) => request.outcome === 'status').map((request) => request.toolNames.length > 0)).toEqual([true, false]);
    expect(harness.server.requests.some(carriesNativeToolMessages)).toBe(false);
  });

  test('a run resumed by a new worker (a new memory over the same storage) keeps the prompted wrap-up', async () => {
    const items: Record<string, unknown> = {};
    const storage: KeyValueStorage = {
      get: (key) => Promise.resolve(key in items ? { [key]: items[key] } : {}),
      set: (more) => Promise.resolve(void Object.assign(items, more)),
    };
    // Each worker builds its clients and its memory afresh; only the storage outlives it.
    const workerModels = () => {
      const client = createModelClient(
        { label: 'scripted', baseURL: harness.server.baseURL, apiKey: 'sk-test', model: 'scripted-model' },
        { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 2, toolProtocolMemory: createStoredToolProtocolMemory(storage) },
      );
      return () => client;
    };
    let wrapUpReached: () => void = () => undefined;
    const hanging = new Promise<void>((resolve) => (wrapUpReached = resolve));
    harness.server.queue(isRoot, { toolCalls: [listWorkspace] }, { toolCalls: [listWorkspace] }, () => (wrapUpReached(), { fault: 'hang' }), { content: 'The duke parries.' });

    const stopped = harness.start({ resolveModel: workerModels() });
    await hanging;
    await harness.runtime.shutdown();
    const suspended = await stopped;
    expect(suspended.suspended).toBe(true);

    const resumed = await harness.newRuntime().resumeRun(suspended.run.id, { resolveModel: workerModels() });

    expect(resumed.reply).toBe('The duke parries.');
    // The wrap-up offers no tools: its system text has no tools section, its history has the results as text.
    const wrapUps = harness.server.requests.filter((request) => isRoot(request) && !request.systemText.includes('# Tools') && request.allText.includes('<tool_response'));
    expect(wrapUps).toHaveLength(2);
    expect(harness.server.requests.filter((request) => request.outcome === 'status')).toHaveLength(1);
    expect(harness.server.requests.some(carriesNativeToolMessages)).toBe(false);
  });
});

describe('a strict chat template on a native endpoint', () => {
  test.each([true, false])('its refusal of the roles falls open to the page (streamed: %s)', async (streamed) => {
    harness = await startHarness();
    harness.server.modes.strictRoles = true;
    harness.server.queue(isRoot, { toolCalls: [listWorkspace] }, { content: 'never reached' });

    const actual = await startRun(streamed);

    expect(actual.run.status).toBe('failed');
    expect(actual.run.error?.code).toBe('history-refused');
    expect(actual.run.fallback?.code).toBe('history-refused');
    // Refused once: a template error is not retried.
    expect(refusals()).toHaveLength(1);
  });
});

/** A chat whose messages take about `chars` characters as JSON. */
function chatOf(chars: number) {
  const turn = 'The rain keeps falling on the old keep and its tired guards. ';
  const messages: { role: 'system' | 'user' | 'assistant'; content: string }[] = [{ role: 'system', content: 'You are Mira, a storyteller.' }];
  for (let index = 0; JSON.stringify(messages).length < chars - 120; index += 1) {
    messages.push({ role: index % 2 === 0 ? 'user' : 'assistant', content: `Turn ${index}: ${turn.repeat(3)}` });
  }
  messages.push({ role: 'user', content: 'She draws her sword and faces the duke.' });
  return { ...snapshot, messages };
}

describe.each([true, false])('a small window the refusal states (streamed: %s)', (streamed) => {
  const chat = chatOf(5_152);

  beforeEach(async () => {
    harness = await startHarness();
    // 6,000 characters, stated as 2,048 tokens: the chat fits, the chat with Retinue added does not.
    harness.server.modes.contextWindowChars = 6_000;
    harness.server.modes.contextWindowTokens = 2_048;
  });

  test('one refusal, then the next send fits; a later run starts fitted and is refused none', async () => {
    expect(JSON.stringify(chat.messages).length).toBeLessThan(6_000);
    harness.server.script((request) => (isRoot(request) ? { content: request.lastMessageText === 'She draws her sword and faces the duke.' ? 'The duke parries.' : 'wrong last message' } : undefined));

    const first = await startRun(streamed, { snapshot: { ...chat, stream: streamed } });

    expect(first.reply).toBe('The duke parries.');
    expect(refusals()).toHaveLength(1);
    const answered = harness.server.requests.filter((request) => request.outcome === 'answered');
    expect(answered).toHaveLength(1);
    expect(answered[0]?.systemText).toContain('You are Mira, a storyteller.');

    const second = await startRun(streamed, { snapshot: { ...chat, stream: streamed } });

    expect(second.reply).toBe('The duke parries.');
    expect(refusals()).toHaveLength(1);
    expect(harness.server.requests).toHaveLength(3);
  });

  test("a child on the same endpoint starts fitted too, and keeps its briefing", async () => {
    harness.server.queue(isRoot, { toolCalls: [delegateCritic] }, { toolCalls: [awaitAll] }, { content: 'The duke parries.' });
    harness.server.queue(isCritic, { toolCalls: [criticReturns] });

    const actual = await startRun(streamed, { snapshot: { ...chat, stream: streamed } });

    expect(actual.reply).toBe('The duke parries.');
    expect(refusals()).toHaveLength(1);
    expect(harness.server.requests.filter(isCritic).every((request) => request.allText.includes('Critique the scene.'))).toBe(true);
  });
});

describe('an endpoint that refuses stream_options', () => {
  test.each([true, false])('is asked again without it at once, and later calls leave it out (streamed: %s)', async (streamed) => {
    harness = await startHarness();
    harness.server.modes.refuseStreamOptions = true;
    harness.server.queue(isRoot, { toolCalls: [delegateCritic] }, { toolCalls: [awaitAll] }, { content: 'The duke parries.' });
    harness.server.queue(isCritic, { toolCalls: [criticReturns] });

    const actual = await startRun(streamed);

    expect(actual.run.status).toBe('completed');
    expect(actual.reply).toBe('The duke parries.');
    expect(refusals()).toHaveLength(1);
    expect(actual.run.usage.estimated).toBe(true);
  });
});

describe("issue 20 case 10: trimming a child's history after a nudge", () => {
  test('never drops its task briefing: the child fails with context-too-long rather than work without it', async () => {
    harness = await startHarness();
    harness.server.queue(isRoot, { toolCalls: [delegateCritic] }, { toolCalls: [awaitAll] }, { content: 'The duke parries.' });
    const sizeOf = (request: ScriptedRequest) => JSON.stringify(request.body.messages).length + JSON.stringify(request.body.tools ?? []).length;
    harness.server.queue(
      isCritic,
      (request) => {
        // Every request so far fits; the child's next one, with this long answer and the nudge, does not.
        harness.server.modes.contextWindowChars = Math.max(...harness.server.requests.map(sizeOf)) + 1_500;
        expect(sizeOf(request)).toBeLessThan(harness.server.modes.contextWindowChars);
        return { content: `Some thoughts on the duel, not yet returned. ${'The blades ring. '.repeat(250)}` };
      },
      { toolCalls: [criticReturns] },
    );

    const actual = await harness.start();

    expect(actual.reply).toBe('The duke parries.');
    const criticRequests = harness.server.requests.filter(isCritic);
    expect(criticRequests.length).toBeGreaterThan(1);
    for (const request of criticRequests) expect(request.allText).toContain('Critique the scene.');
    const [task] = await harness.store.listTasks(actual.run.id);
    expect(task?.status).toBe('failed');
    expect(task?.error?.code).toBe('context-too-long');
  });
});
