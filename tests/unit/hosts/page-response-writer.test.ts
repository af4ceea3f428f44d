import OpenAI from 'openai';
import { describe, expect, test } from 'vitest';
import { createPageResponseWriter, type PageResponsePart } from '../../../src/hosts/page-response-writer';

/** Collects what the writer sends and turns it into the Response the page hook would build. */
function collect() {
  const parts: PageResponsePart[] = [];
  const toResponse = () => {
    const start = parts.find((part) => part.kind === 'start');
    if (start?.kind !== 'start') throw new Error('no start');
    const body = parts.map((part) => (part.kind === 'chunk' ? part.text : '')).join('');
    return new Response(body, { status: start.status, headers: { 'content-type': start.contentType } });
  };
  return { parts, send: (part: PageResponsePart) => parts.push(part), toResponse };
}

/** An OpenAI SDK client that reads the given response as if a server had sent it. */
function clientReading(response: Response) {
  return new OpenAI({ apiKey: 'unused', baseURL: 'http://page.test/v1', maxRetries: 0, fetch: async () => response });
}

describe('answers to the page', () => {
  test('a streamed answer reads back through the openai SDK: progress as reasoning, the reply as content', async () => {
    const sink = collect();
    const writer = createPageResponseWriter({ stream: true, model: 'qwen3-8b', send: sink.send });
    writer.progress('scene-critic · Critique — started');
    writer.progress('scene-critic · Critique — done');
    writer.reply('The rain stopped.');
    const stream = await clientReading(sink.toResponse()).chat.completions.create({ model: 'qwen3-8b', messages: [], stream: true });
    let content = '';
    let reasoning = '';
    const finishReasons: (string | null)[] = [];
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as { content?: string; reasoning_content?: string };
      content += delta.content ?? '';
      reasoning += delta.reasoning_content ?? '';
      finishReasons.push(chunk.choices[0]?.finish_reason ?? null);
    }
    expect(content).toBe('The rain stopped.');
    expect(reasoning).toBe('scene-critic · Critique — started\nscene-critic · Critique — done\n');
    expect(finishReasons.at(-1)).toBe('stop');
    expect(sink.parts.at(-1)).toEqual({ kind: 'end' });
    expect(writer.finished).toBe(true);
  });

  test('a non-streamed answer is one JSON completion with no progress in it', async () => {
    const sink = collect();
    const writer = createPageResponseWriter({ stream: false, model: 'qwen3-8b', send: sink.send });
    writer.progress('scene-critic · Critique — started');
    writer.reply('The rain stopped.');
    const completion = await clientReading(sink.toResponse()).chat.completions.create({ model: 'qwen3-8b', messages: [] });
    expect(completion.choices[0]?.message.content).toBe('The rain stopped.');
    expect(completion.model).toBe('qwen3-8b');
    expect(JSON.stringify(completion)).not.toContain('Critique');
  });

  test('a failure before any progress is an HTTP error status with {error: {message}}', async () => {
    const sink = collect();
    const writer = createPageResponseWriter({ stream: true, send: sink.send });
    writer.fail(502, "The agent scene-critic's model answered 401.");
    const response = sink.toResponse();
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ error: { message: "The agent scene-critic's model answered 401." } });
  });

  test('a failure after the stream opened is an error event the SDK raises', async () => {
    const sink = collect();
    const writer = createPageResponseWriter({ stream: true, send: sink.send });
    writer.progress('critic · Critique — started');
    writer.fail(500, 'The run failed.');
    const stream = await clientReading(sink.toResponse()).chat.completions.create({ model: 'm', messages: [], stream: true });
    const read = async () => {
      for await (const _chunk of stream) {
        // drain
      }
    };
    await expect(read()).rejects.toThrow('The run failed.');
  });

  test('nothing is sent after the answer ended', () => {
    const sink = collect();
    const writer = createPageResponseWriter({ stream: false, send: sink.send });
    writer.reply('one');
    const before = sink.parts.length;
    writer.reply('two');
    writer.fail(500, 'late');
    writer.progress('late');
    expect(sink.parts.length).toBe(before);
  });
});
