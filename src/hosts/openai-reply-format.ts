/**
 * OpenAI chat-completions response bodies, as pages that speak that protocol read them: one JSON
 * completion, or `chat.completion.chunk` SSE lines ending in `data: [DONE]`, and `{error: {message}}`
 * for errors. Progress goes into `delta.reasoning_content`, which hosts show apart from the reply.
 */

export interface CompletionIdentity {
  id: string;
  model: string;
  /** Unix seconds. */
  created: number;
}

/** A fresh identity for one answer to the page. */
export function newCompletionIdentity(model: string | undefined, nowMs: number = Date.now()): CompletionIdentity {
  const random = Math.random().toString(36).slice(2, 12);
  return { id: `chatcmpl-retinue-${random}`, model: model ?? 'retinue', created: Math.floor(nowMs / 1000) };
}

/** A whole non-streamed completion whose assistant message is `reply`. */
export function formatCompletionJson(identity: CompletionIdentity, reply: string): string {
  return JSON.stringify({
    id: identity.id,
    object: 'chat.completion',
    created: identity.created,
    model: identity.model,
    choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop', logprobs: null }],
  });
}

export interface ChunkDelta {
  role?: 'assistant';
  content?: string;
  reasoning_content?: string;
}

/** One SSE event carrying a `chat.completion.chunk`. */
export function formatStreamChunk(
  identity: CompletionIdentity,
  delta: ChunkDelta,
  finishReason: 'stop' | null = null,
): string {
  const chunk = {
    id: identity.id,
    object: 'chat.completion.chunk',
    created: identity.created,
    model: identity.model,
    choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
  };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/** The SSE terminator OpenAI-style readers wait for. */
export const STREAM_DONE = 'data: [DONE]\n\n';

/** The error body OpenAI-compatible servers (and SillyTavern's server) answer with. */
export function formatErrorBody(message: string): string {
  return JSON.stringify({ error: { message, type: 'retinue_error' } });
}

/** An error inside a stream that already started (the status line has been sent). */
export function formatStreamError(message: string): string {
  return `data: ${formatErrorBody(message)}\n\n`;
}
