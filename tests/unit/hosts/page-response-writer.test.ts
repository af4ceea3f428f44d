import OpenAI from 'openai';
import { afterEach, describe, expect, test, vi } from 'vitest';
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

/**
 * A reader that redraws at a fixed rate, as SillyTavern does: it takes every SSE event as it arrives
 * but redraws the reasoning only when `intervalMs` passed since its last redraw, skipping (not
 * deferring) a redraw that comes sooner. Returns what the person sees.
 */
function rateLimitedReader(intervalMs: number) {
  let reasoning = '';
  let shown = '';
  let lastRedraw = Date.now();
  return {
    send(part: PageResponsePart) {
      if (part.kind !== 'chunk') return;
      for (const event of part.text.split('\n\n')) {
        if (!event.startsWith('data: ') || event === 'data: [DONE]') continue;
        const delta = (JSON.parse(event.slice('data: '.length)) as { choices: { delta: { reasoning_content?: string } }[] }).choices[0]?.delta;
        reasoning += delta?.reasoning_content ?? '';
        if (Date.now() - lastRedraw < intervalMs) continue;
        shown = reasoning;
        lastRedraw = Date.now();
      }
    },
    get shown() {
      return shown;
    },
  };
}

describe('progress on pages that redraw at a fixed rate', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test('the last line of a burst shows while the agents work, at the slowest rate SillyTavern offers (5 per second)', async () => {
    vi.useFakeTimers();
    const reader = rateLimitedReader(200);
    const writer = createPageResponseWriter({ stream: true, send: (part) => reader.send(part) });
    await vi.advanceTimersByTimeAsync(250);
    writer.progress('continuity-checker · Check — started');
    await vi.advanceTimersByTimeAsync(30);
    writer.progress('scene-critic · Critique — started');
    // The agents now work for minutes without a word.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(reader.shown).toBe('continuity-checker · Check — started\nscene-critic · Critique — started\n');
    expect(writer.finished).toBe(false);
  });

  test('the redraw event is an empty delta the openai SDK reads, and nothing comes after the answer ended', async () => {
    vi.useFakeTimers();
    const sink = collect();
    const writer = createPageResponseWriter({ stream: true, send: sink.send });
    writer.progress('scene-critic · Critique — started');
    await vi.advanceTimersByTimeAsync(1_000);
    writer.progress('scene-critic · Critique — done');
    writer.reply('The rain stopped.');
    const partsAtEnd = sink.parts.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sink.parts.length).toBe(partsAtEnd);
    vi.useRealTimers();
    const stream = await clientReading(sink.toResponse()).chat.completions.create({ model: 'm', messages: [], stream: true });
    const deltas: unknown[] = [];
    for await (const chunk of stream) deltas.push(chunk.choices[0]?.delta);
    // One redraw event after the first line (the second line came with the reply), one with the finish reason.
    expect(deltas.filter((delta) => JSON.stringify(delta) === '{}').length).toBe(2);
    expect(deltas.map((delta) => (delta as { content?: string }).content ?? '').join('')).toBe('The rain stopped.');
  });
});

describe('a reply streamed as the model writes it', () => {
  async function readStream(sink: ReturnType<typeof collect>) {
    const stream = await clientReading(sink.toResponse()).chat.completions.create({ model: 'm', messages: [], stream: true });
    const contentDeltas: string[] = [];
    let reasoning = '';
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as { content?: string; reasoning_content?: string };
      if (delta.content) contentDeltas.push(delta.content);
      reasoning += delta.reasoning_content ?? '';
    }
    return { contentDeltas, content: contentDeltas.join(''), reasoning };
  }

  test('each delta is its own content event, and a streamed reply is not sent again at the end', async () => {
    const sink = collect();
    const writer = createPageResponseWriter({ stream: true, send: sink.send });
    writer.reasoning('Weighing it');
    writer.progress('scene-critic · Critique — done');
    writer.replyDelta('The rain ');
    writer.replyDelta('stopped.');
    writer.reply('The rain stopped.', { streamed: true });
    const actual = await readStream(sink);
    expect(actual.contentDeltas).toEqual(['The rain ', 'stopped.']);
    expect(actual.reasoning).toBe('Weighing it\nscene-critic · Critique — done\n');
  });

  test('after shown text is discarded, a reply that was not streamed follows it after a blank line', async () => {
    const sink = collect();
    const writer = createPageResponseWriter({ stream: true, send: sink.send });
    writer.replyDelta('Let me ask.');
    writer.discardShownReply();
    writer.reply('The committed reply.');
    const actual = await readStream(sink);
    expect(actual.content).toBe('Let me ask.\n\nThe committed reply.');
  });

  test('a non-streamed request gets only the whole reply, as JSON at the end', async () => {
    const sink = collect();
    const writer = createPageResponseWriter({ stream: false, send: sink.send });
    writer.replyDelta('Let me ask.');
    writer.reasoning('thinking');
    writer.discardShownReply();
    writer.reply('The reply.', { streamed: true });
    expect(sink.parts[0]).toEqual({ kind: 'start', status: 200, contentType: 'application/json; charset=utf-8' });
    const completion = await clientReading(sink.toResponse()).chat.completions.create({ model: 'm', messages: [] });
    expect(completion.choices[0]?.message.content).toBe('The reply.');
  });
});
