import OpenAI from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { peakOverlap, startScriptedModelServer, type ScriptedModelServer } from '../../support/scripted-model-server';

let server: ScriptedModelServer;
let client: OpenAI;

beforeEach(async () => {
  server = await startScriptedModelServer();
  client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test-key', maxRetries: 0 });
});

afterEach(async () => {
  await server.close();
});

async function collect(stream: AsyncIterable<ChatCompletionChunk>): Promise<ChatCompletionChunk[]> {
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('the scripted model server, through the real openai SDK', () => {
  test('streams content in several deltas, then usage when asked', async () => {
    server.script(() => ({ content: 'Hello from the script.', usage: { prompt_tokens: 7, completion_tokens: 5, total_tokens: 12 } }));

    const chunks = await collect(
      await client.chat.completions.create({
        model: 'scripted-model',
        messages: [{ role: 'user', content: 'Hi' }],
        stream: true,
        stream_options: { include_usage: true },
      }),
    );

    const contentDeltas = chunks.map((chunk) => chunk.choices[0]?.delta.content).filter(Boolean);
    expect(contentDeltas.length).toBeGreaterThan(1);
    expect(contentDeltas.join('')).toBe('Hello from the script.');
    expect(chunks.at(-1)?.usage).toEqual({ prompt_tokens: 7, completion_tokens: 5, total_tokens: 12 });
    expect(chunks.some((chunk) => chunk.choices[0]?.finish_reason === 'stop')).toBe(true);
  });

  test('streams several tool calls with distinct indexes and arguments split across deltas', async () => {
    server.script(() => ({
      toolCalls: [
        { name: 'agent_delegate', arguments: { agentId: 'critic', task: { title: 'Critique' } } },
        { name: 'workspace_read', arguments: '{"path": "input/' },
      ],
    }));

    const chunks = await collect(
      await client.chat.completions.create({ model: 'scripted-model', messages: [{ role: 'user', content: 'Go' }], stream: true }),
    );

    const deltas = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    const assembled = new Map<number, { id?: string; name?: string; arguments: string; deltaCount: number }>();
    for (const delta of deltas) {
      const entry = assembled.get(delta.index) ?? { arguments: '', deltaCount: 0 };
      entry.id ??= delta.id;
      entry.name ??= delta.function?.name;
      entry.arguments += delta.function?.arguments ?? '';
      entry.deltaCount += 1;
      assembled.set(delta.index, entry);
    }
    expect([...assembled.keys()]).toEqual([0, 1]);
    expect(assembled.get(0)?.name).toBe('agent_delegate');
    expect(JSON.parse(assembled.get(0)?.arguments ?? '')).toEqual({ agentId: 'critic', task: { title: 'Critique' } });
    expect(assembled.get(0)?.deltaCount).toBeGreaterThan(2);
    expect(assembled.get(1)?.arguments).toBe('{"path": "input/');
    expect(assembled.get(0)?.id).not.toBe(assembled.get(1)?.id);
    expect(chunks.some((chunk) => chunk.choices[0]?.finish_reason === 'tool_calls')).toBe(true);
  });

  test('answers non-streamed requests as JSON with usage', async () => {
    server.script(() => ({ content: 'Plain.', toolCalls: [{ name: 'chat_read', arguments: { count: 2 } }] }));

    const completion = await client.chat.completions.create({ model: 'scripted-model', messages: [{ role: 'user', content: 'Hi' }] });

    expect(completion.choices[0]?.message.content).toBe('Plain.');
    const call = completion.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === 'function' ? call.function.arguments : undefined).toBe('{"count":2}');
    expect(completion.usage?.total_tokens).toBeGreaterThan(0);
  });

  test('picks replies by system-message marker, whatever order requests arrive in', async () => {
    server.queue('[[alpha]]', { content: 'alpha one' }, { content: 'alpha two' });
    server.queue('[[beta]]', { content: 'beta one' });
    const ask = async (marker: string) =>
      (await client.chat.completions.create({ model: 'm', messages: [{ role: 'system', content: `You are ${marker}.` }, { role: 'user', content: 'Go' }] }))
        .choices[0]?.message.content;

    const actual = [await ask('[[beta]]'), await ask('[[alpha]]'), await ask('[[alpha]]')];

    expect(actual).toEqual(['beta one', 'alpha one', 'alpha two']);
  });

  test('an unscripted request gets a 400 that says so, and is recorded as unmatched', async () => {
    const actual = client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'Anyone?' }] });

    await expect(actual).rejects.toMatchObject({ status: 400 });
    expect(server.unmatched).toHaveLength(1);
  });

  test('a script that throws answers 400 and keeps the error for the test', async () => {
    server.script(() => {
      throw new Error('Script bug.');
    });

    const actual = client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });

    await expect(actual).rejects.toMatchObject({ status: 400 });
    expect(server.scriptErrors).toEqual([new Error('Script bug.')]);
  });

  test('status faults carry an OpenAI error body and Retry-After', async () => {
    server.script(() => ({ fault: 'status', status: 429, retryAfter: 3, message: 'Slow down.' }));

    const error: unknown = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    const rateLimit = error as InstanceType<typeof OpenAI.RateLimitError>;
    expect(rateLimit.headers.get('retry-after')).toBe('3');
    expect(rateLimit.message).toContain('Slow down.');
    expect(server.requests[0]?.outcome).toBe('status');
  });

  test('a cut stream breaks the SDK iteration after some chunks', async () => {
    server.script(() => ({ fault: 'cut-stream', afterChunks: 2, turn: { content: 'This never ends properly, I am afraid.' } }));

    const received: string[] = [];
    const iterate = async () => {
      const stream = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true });
      for await (const chunk of stream) received.push(chunk.choices[0]?.delta.content ?? '');
    };

    await expect(iterate()).rejects.toThrow();
    expect(server.requests[0]?.outcome).toBe('cut');
    expect(received.join('')).not.toBe('This never ends properly, I am afraid.');
  });

  test('a hanging request ends when the client aborts', async () => {
    server.script(() => ({ fault: 'hang', afterChunks: 2, turn: { content: 'Partial answer that hangs.' } }));
    const controller = new AbortController();

    const stream = await client.chat.completions.create(
      { model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true },
      { signal: controller.signal },
    );
    const iterate = (async () => {
      for await (const chunk of stream) if (chunk.choices[0]?.delta.content) controller.abort();
    })();

    // The SDK ends the iteration quietly on abort; the server sees the client go away.
    await iterate;
    expect(controller.signal.aborted).toBe(true);
    await expect.poll(() => server.requests[0]?.outcome).toBe('client-closed');
  });

  test('records bodies, headers and times; lists models; counts overlapping requests', async () => {
    server.script(() => ({ content: 'ok', delayMs: 50 }));

    await Promise.all([1, 2, 3].map((n) => client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: `n${n}` }] })));
    const models = await client.models.list();

    expect(models.data.map((model) => model.id)).toEqual(['scripted-model']);
    expect(server.requests).toHaveLength(3);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer test-key');
    for (const request of server.requests) expect(request.answeredAt).toBeGreaterThanOrEqual(request.receivedAt);
    expect(peakOverlap(server.requests)).toBe(3);
  });
});
