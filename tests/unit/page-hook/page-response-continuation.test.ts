import { describe, expect, test } from 'vitest';
import { passThroughReplyEvents } from '../../../src/bridge/pass-through-reply';
import { continueStreamWith } from '../../../src/page-hook/page-response-continuation';

/**
 * A stream that already carried Retinue's first event, continued with `response`; its whole text.
 * What the page hook hands the bridge comes back as the bridge writes it (src/bridge/pass-through-reply.ts).
 */
async function continued(response: Response | Promise<Response>): Promise<string> {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>({ start: (started) => void (controller = started) });
  controller?.enqueue(new TextEncoder().encode('data: {"progress":true}\n\n'));
  const stream = controller!;
  void continueStreamWith(stream, Promise.resolve(response), ({ status, text }) => {
    stream.enqueue(new TextEncoder().encode(passThroughReplyEvents(status, text)));
    stream.close();
  });
  return new Response(body).text();
}

const events = (text: string) =>
  text
    .split('\n\n')
    .filter(Boolean)
    .map((event) => event.replace(/^data: /, ''));

describe("the page's own answer continues a stream that already started", () => {
  test('an SSE answer is piped byte for byte', async () => {
    const sse = 'data: {"choices":[{"delta":{"content":"Hi"}}]}\n\ndata: [DONE]\n\n';
    const actual = await continued(new Response(sse, { headers: { 'content-type': 'text/event-stream' } }));
    expect(actual).toBe(`data: {"progress":true}\n\n${sse}`);
  });

  test('a JSON completion becomes a content event and the end', async () => {
    const json = JSON.stringify({ model: 'page-model', choices: [{ message: { role: 'assistant', content: 'Plain reply.' } }] });
    const actual = events(await continued(new Response(json, { headers: { 'content-type': 'application/json' } })));
    expect(actual.at(-1)).toBe('[DONE]');
    const chunk = JSON.parse(actual[1] ?? '{}') as { model: string; choices: { delta: { content?: string } }[] };
    expect(chunk.model).toBe('page-model');
    expect(chunk.choices[0]?.delta.content).toBe('Plain reply.');
  });

  test("an error status becomes the stream's error event with the server's words", async () => {
    const actual = events(await continued(new Response(JSON.stringify({ error: { message: 'Incorrect API key provided.' } }), { status: 401 })));
    expect(JSON.parse(actual[1] ?? '{}')).toEqual({ error: { message: 'Incorrect API key provided.', type: 'retinue_error' } });
    expect(actual.at(-1)).toBe('[DONE]');
  });

  test('a failed fetch errors the stream', async () => {
    await expect(continued(Promise.reject(new TypeError('Failed to fetch')))).rejects.toThrow('Failed to fetch');
  });
});
