import { formatStreamChunk, STREAM_DONE, type CompletionIdentity } from './openai-reply-format';

/**
 * The events of a streamed answer in the shape one page's code reads. OpenAI chunks serve every
 * OpenAI-shaped host; SillyTavern's Claude and Google sources read their provider's own events
 * (see `sillytavern/claude-source.ts`, `sillytavern/google-source.ts`). Errors keep one shape, the
 * `{error: {message}}` event, which every one of those readers shows.
 */
export interface PageStreamFormat {
  /** The event that opens a stream, before any text. */
  opening(identity: CompletionIdentity): string;
  /** Reply text. */
  text(identity: CompletionIdentity, text: string): string;
  /** Text for the page's reasoning channel. */
  reasoning(identity: CompletionIdentity, text: string): string;
  /** An event that adds nothing, so a page that redraws per event redraws what it has. */
  idle(identity: CompletionIdentity): string;
  /** The events that end a finished reply. */
  closing(identity: CompletionIdentity): string;
}

/** `chat.completion.chunk` events ending in `data: [DONE]`. */
export const openAiStreamFormat: PageStreamFormat = {
  opening: (identity) => formatStreamChunk(identity, { role: 'assistant', content: '' }),
  text: (identity, text) => formatStreamChunk(identity, { content: text }),
  reasoning: (identity, text) => formatStreamChunk(identity, { reasoning_content: text }),
  idle: (identity) => formatStreamChunk(identity, {}),
  closing: (identity) => formatStreamChunk(identity, {}, 'stop') + STREAM_DONE,
};

/** One SSE event carrying `value` as JSON, with an event name where the provider sends one. */
export function sseEvent(value: unknown, eventName?: string): string {
  return `${eventName ? `event: ${eventName}\n` : ''}data: ${JSON.stringify(value)}\n\n`;
}
