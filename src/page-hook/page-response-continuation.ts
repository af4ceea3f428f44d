import { formatStreamChunk, formatStreamError, newCompletionIdentity, STREAM_DONE } from '../hosts/openai-reply-format';

/**
 * Fail open after a streamed answer already started (DESIGN.md §13): the page holds a 200 SSE response
 * whose first events were Retinue's progress lines (reasoning deltas), so the page's own response is
 * written into that same body. An SSE answer is piped byte for byte; a JSON completion (a server that
 * ignores `stream`) becomes one content event; an error becomes the SSE error event OpenAI-style readers
 * show. MAIN-world code: no zod, no extension APIs.
 */
export async function continueStreamWith(body: ReadableStreamDefaultController<Uint8Array>, pending: Promise<Response>): Promise<void> {
  const encoder = new TextEncoder();
  try {
    const response = await pending;
    const type = response.headers.get('content-type') ?? '';
    if (response.ok && response.body && type.includes('text/event-stream')) {
      const reader = response.body.getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) body.enqueue(read.value);
    } else {
      const text = await response.text();
      body.enqueue(encoder.encode(response.ok ? completionAsEvents(text) : formatStreamError(errorMessageOf(text, response.status)) + STREAM_DONE));
    }
    body.close();
  } catch (error) {
    body.error(error);
  }
}

/** A non-streamed completion as the events of a stream: its content, then the end. */
function completionAsEvents(text: string): string {
  const completion = parseObject(text);
  const choices = completion?.choices;
  const first: unknown = Array.isArray(choices) ? choices[0] : undefined;
  const message = isObject(first) && isObject(first.message) ? first.message : undefined;
  const content = typeof message?.content === 'string' ? message.content : '';
  const identity = newCompletionIdentity(typeof completion?.model === 'string' ? completion.model : undefined);
  return formatStreamChunk(identity, { content }) + formatStreamChunk(identity, {}, 'stop') + STREAM_DONE;
}

/** The provider's words in an error body (`{error: {message}}`, `{error: "…"}`, `{message}`), else the status. */
function errorMessageOf(text: string, status: number): string {
  const parsed = parseObject(text);
  const error = parsed?.error;
  const said = isObject(error) ? error.message : (error ?? parsed?.message);
  if (typeof said === 'string' && said) return said;
  return text.trim().slice(0, 500) || `The server answered ${status}.`;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
