import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { CancelledError, ProviderError } from '../../../src/errors';
import { createModelClient, type ModelClientOptions } from '../../../src/model/create-model-client';
import type { ModelCallRetry, ModelTarget } from '../../../src/model/model-client';
import { loadTokenCounter, promptTokens } from '../../../src/model/token-estimate';
import { toToolDefinition } from '../../../src/model/tool-protocol';
import { z } from 'zod';
import { peakOverlap, startScriptedModelServer, type ScriptedModelServer } from '../../support/scripted-model-server';

let server: ScriptedModelServer;

beforeEach(async () => {
  server = await startScriptedModelServer();
});

afterEach(async () => {
  await server.close();
});

function target(overrides: Partial<ModelTarget> = {}): ModelTarget {
  return { label: "connection 'local' · scripted-model", authAdvice: "check the API key of connection 'local' in Retinue's options", baseURL: server.baseURL, apiKey: 'sk-secret-key-1234', model: 'scripted-model', ...overrides };
}

const fastRetries: ModelClientOptions = { maxRetries: 2, baseDelayMs: 5, maxDelayMs: 20 };
const userMessage = [{ role: 'user' as const, content: 'Hello' }];

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );
}

describe('createModelClient against the scripted server', () => {
  test('streams text to onTextDelta and returns the whole turn with usage', async () => {
    server.script(() => ({ content: 'A streamed reply in pieces.', usage: { prompt_tokens: 11, completion_tokens: 6, total_tokens: 17 } }));
    const deltas: string[] = [];

    const actual = await createModelClient(target({ extraBody: { custom_url: 'http://example.test', model: 'overridden' } })).call({
      messages: userMessage,
      sampling: { temperature: 0.3, max_tokens: 100 },
      signal: new AbortController().signal,
      onTextDelta: (text) => deltas.push(text),
    });

    expect(actual.message).toEqual({ role: 'assistant', content: 'A streamed reply in pieces.' });
    expect(actual.finishReason).toBe('stop');
    expect(actual.usage).toEqual({ promptTokens: 11, completionTokens: 6, totalTokens: 17 });
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('A streamed reply in pieces.');
    const body = server.requests[0]?.body as unknown as Record<string, unknown>;
    expect(body).toMatchObject({
      model: 'scripted-model',
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.3,
      max_tokens: 100,
      custom_url: 'http://example.test',
    });
    expect(body.tools).toBeUndefined();
  });

  test('assembles streamed tool-call deltas into one assistant message', async () => {
    server.script(() => ({
      content: 'Let me delegate.',
      toolCalls: [
        { name: 'agent_delegate', arguments: { agentId: 'critic', task: { title: 'Critique the scene' } } },
        { name: 'workspace_read', arguments: { path: 'input/prompt-snapshot.json' } },
      ],
    }));
    const tools = [
      toToolDefinition({ name: 'agent.delegate', description: 'Delegate.', parameters: z.object({ agentId: z.string() }) }),
      toToolDefinition({ name: 'workspace.read', description: 'Read.', parameters: z.object({ path: z.string() }) }),
    ];

    const actual = await createModelClient(target()).call({ messages: userMessage, tools, toolChoice: 'auto', signal: new AbortController().signal });

    expect(actual.finishReason).toBe('tool_calls');
    expect(actual.message.content).toBe('Let me delegate.');
    const calls = actual.message.tool_calls ?? [];
    expect(calls.map((call) => (call.type === 'function' ? [call.function.name, JSON.parse(call.function.arguments)] : []))).toEqual([
      ['agent_delegate', { agentId: 'critic', task: { title: 'Critique the scene' } }],
      ['workspace_read', { path: 'input/prompt-snapshot.json' }],
    ]);
    expect(new Set(calls.map((call) => call.id)).size).toBe(2);
    expect(server.requests[0]?.toolNames).toEqual(['agent_delegate', 'workspace_read']);
    expect(server.requests[0]?.body.tool_choice).toBe('auto');
  });

  test('a target without an API key sends no Authorization header', async () => {
    server.script(() => ({ content: 'Local servers need no key.' }));

    const actual = await createModelClient(target({ apiKey: '' })).call({ messages: userMessage, signal: new AbortController().signal });

    expect(actual.message.content).toBe('Local servers need no key.');
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  test('a custom fetch carries every call, as the page relay of the host binding does', async () => {
    server.script(() => ({ content: 'Relayed.' }));
    const relayed: string[] = [];
    const relay: typeof globalThis.fetch = (input, init) => {
      relayed.push(`${init?.method ?? 'GET'} ${String(input)}`);
      return globalThis.fetch(input, init);
    };

    const actual = await createModelClient(target({ fetch: relay })).call({ messages: userMessage, signal: new AbortController().signal });

    expect(actual.message.content).toBe('Relayed.');
    expect(relayed).toEqual([`POST ${server.baseURL}/chat/completions`]);
  });

  test('usage the provider does not send is estimated from what was sent and answered, and marked so', async () => {
    server.script(() => ({ content: 'No usage here.', omitUsage: true }));

    const actual = await createModelClient(target()).call({ messages: userMessage, signal: new AbortController().signal });

    const count = await loadTokenCounter();
    const prompt = promptTokens(count, userMessage);
    const completion = count('No usage here.');
    expect(actual.usage).toEqual({ promptTokens: prompt, completionTokens: completion, totalTokens: prompt + completion, estimated: true });
  });

  test('429 with Retry-After waits at least that long, then succeeds', async () => {
    server.queue(() => true, { fault: 'status', status: 429, retryAfter: 1, message: 'Key sk-secret-key-1234 is over its limit.' }, { content: 'Second time lucky.' });
    const retries: ModelCallRetry[] = [];

    const actual = await createModelClient(target(), { ...fastRetries, onRetry: (retry) => retries.push(retry) }).call({
      messages: userMessage,
      signal: new AbortController().signal,
    });

    expect(actual.message.content).toBe('Second time lucky.');
    expect(server.requests).toHaveLength(2);
    const [first, second] = server.requests;
    // Measured on the server's own clock: from the 429 leaving to the retry arriving (timers may fire ~1 ms early).
    expect((second?.receivedAt ?? 0) - (first?.answeredAt ?? 0)).toBeGreaterThanOrEqual(995);
    expect(retries).toMatchObject([{ attempt: 1, delayMs: 1000, status: 429 }]);
    expect(retries[0]?.reason).toBe('429: Key [api key] is over its limit.');
  });

  test('500 for ever ends in a ProviderError after the allowed tries', async () => {
    server.script(() => ({ fault: 'status', status: 500, message: 'The backend fell over.' }));

    const error = await failureOf(createModelClient(target(), fastRetries).call({ messages: userMessage, signal: new AbortController().signal }));

    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'provider-server-error', status: 500, fault: 'provider' });
    expect((error as ProviderError).message).toContain("The model endpoint of connection 'local' · scripted-model");
    expect((error as ProviderError).message).not.toContain(new URL(server.baseURL).host);
    expect((error as ProviderError).message).toContain('500 Internal Server Error (after 3 tries)');
    expect((error as ProviderError).message).toContain('The backend fell over.');
    expect(server.requests).toHaveLength(3);
  });

  test('401 is not retried, and the error names the fix but never the key', async () => {
    server.script(() => ({ fault: 'status', status: 401, message: 'Incorrect API key provided: sk-secret-key-1234.' }));

    const error = await failureOf(createModelClient(target(), fastRetries).call({ messages: userMessage, signal: new AbortController().signal }));

    expect(error).toMatchObject({ code: 'provider-unauthorized', status: 401 });
    const message = (error as ProviderError).message;
    expect(message).toContain('answered 401 Unauthorized');
    expect(message).toContain("check the API key of connection 'local' in Retinue's options");
    expect(message).not.toContain('sk-secret-key-1234');
    expect(server.requests).toHaveLength(1);
  });

  test('a refusal after a retried failure says on which try it came', async () => {
    server.queue(() => true, { fault: 'status', status: 503 }, { fault: 'status', status: 401 });

    const error = await failureOf(createModelClient(target(), fastRetries).call({ messages: userMessage, signal: new AbortController().signal }));

    expect(error).toMatchObject({ code: 'provider-unauthorized', status: 401 });
    expect((error as ProviderError).message).toContain('answered 401 Unauthorized (on try 2)');
    expect(server.requests).toHaveLength(2);
  });

  test('a stream cut mid-way is retried as a whole call', async () => {
    server.queue(
      () => true,
      { fault: 'cut-stream', afterChunks: 3, turn: { content: 'This answer will be cut off half way.' } },
      { content: 'The whole answer.' },
    );
    const retries: ModelCallRetry[] = [];

    const actual = await createModelClient(target(), fastRetries).call({
      messages: userMessage,
      signal: new AbortController().signal,
      onRetry: (retry) => retries.push(retry),
    });

    expect(actual.message.content).toBe('The whole answer.');
    expect(server.requests.map((request) => request.outcome)).toEqual(['cut', 'answered']);
    expect(retries[0]?.reason).toContain('stream broke off');
  });

  test('an endpoint that answers a stream request with plain JSON is read as one whole answer', async () => {
    server.script(() => ({ content: 'Not streamed.', reasoning: 'Short.', ignoreStream: true }));

    const actual = await createModelClient(target(), fastRetries).call({ messages: userMessage, signal: new AbortController().signal });

    expect(actual.message).toEqual({ role: 'assistant', content: 'Not streamed.' });
    expect(actual.reasoning).toBe('Short.');
    expect(server.requests).toHaveLength(1);
  });

  test('a stream that holds no events fails clearly instead of giving an empty turn', async () => {
    server.script(() => ({ content: 'Nothing.', emptyStream: true }));

    const error = await failureOf(createModelClient(target(), fastRetries).call({ messages: userMessage, signal: new AbortController().signal }));

    expect(error).toMatchObject({ code: 'provider-protocol' });
    expect((error as ProviderError).message).toContain('may not support streaming');
    expect(server.requests).toHaveLength(1);
  });

  test('an endpoint nobody listens on fails as unreachable after the retries', async () => {
    const closed = await startScriptedModelServer();
    const deadURL = closed.baseURL;
    await closed.close();

    const error = await failureOf(createModelClient(target({ baseURL: deadURL }), fastRetries).call({ messages: userMessage, signal: new AbortController().signal }));

    expect(error).toMatchObject({ code: 'provider-unreachable' });
    expect((error as ProviderError).message).toContain('could not be reached after 3 tries');
  });

  test('aborting mid-stream rejects with CancelledError and does not retry', async () => {
    server.script(() => ({ fault: 'hang', afterChunks: 3, turn: { content: 'Some words, then silence for ever.' } }));
    const controller = new AbortController();

    const error = await failureOf(
      createModelClient(target(), fastRetries).call({ messages: userMessage, signal: controller.signal, onTextDelta: () => controller.abort() }),
    );

    expect(error).toBeInstanceOf(CancelledError);
    expect(server.requests).toHaveLength(1);
    await expect.poll(() => server.requests[0]?.outcome).toBe('client-closed');
  });

  test('aborting during the backoff wait rejects with CancelledError', async () => {
    server.script(() => ({ fault: 'status', status: 503, retryAfter: 30 }));
    const controller = new AbortController();

    const error = await failureOf(
      createModelClient(target(), fastRetries).call({ messages: userMessage, signal: controller.signal, onRetry: () => controller.abort('the user pressed Stop') }),
    );

    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).message).toContain('the user pressed Stop');
    expect(server.requests).toHaveLength(1);
  });

  test('many calls on one long-lived signal leave no abort listeners behind', async () => {
    server.script(() => ({ content: 'ok' }));
    const client = createModelClient(target());
    const invocationSignal = new AbortController().signal;

    for (let round = 0; round < 12; round += 1) await client.call({ messages: userMessage, signal: invocationSignal });

    expect(getEventListeners(invocationSignal, 'abort')).toHaveLength(0);
  });

  test('never has more calls in flight than the target allows', async () => {
    server.script(() => ({ content: 'ok', delayMs: 40 }));
    const client = createModelClient(target({ maxConcurrency: 2 }));

    await Promise.all(Array.from({ length: 6 }, () => client.call({ messages: userMessage, signal: new AbortController().signal })));

    expect(server.requests).toHaveLength(6);
    expect(peakOverlap(server.requests)).toBe(2);
  });
});
