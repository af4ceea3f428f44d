import { formatStreamChunk, formatStreamError, newCompletionIdentity, STREAM_DONE } from '../hosts/openai-reply-format';

/**
 * The page's own answer to a pass-through after Retinue's stream already began, as the events that
 * end that stream (DESIGN.md §13): a JSON completion (a server that ignores `stream`) becomes one
 * content event; an error becomes the SSE error event OpenAI-style readers show. The page hook pipes
 * a streamed answer itself and hands the bridge only these.
 */
export function passThroughReplyEvents(status: number, text: string): string {
  const parsed = parseObject(text);
  if (status < 200 || status > 299) return formatStreamError(errorMessageOf(parsed, text, status)) + STREAM_DONE;
  const choices = parsed?.choices;
  const first: unknown = Array.isArray(choices) ? choices[0] : undefined;
  const message = isObject(first) && isObject(first.message) ? first.message : undefined;
  const content = typeof message?.content === 'string' ? message.content : '';
  const identity = newCompletionIdentity(typeof parsed?.model === 'string' ? parsed.model : undefined);
  return formatStreamChunk(identity, { content }) + formatStreamChunk(identity, {}, 'stop') + STREAM_DONE;
}

/** The provider's words in an error body (`{error: {message}}`, `{error: "…"}`, `{message}`), else the status. */
function errorMessageOf(parsed: Record<string, unknown> | undefined, text: string, status: number): string {
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
