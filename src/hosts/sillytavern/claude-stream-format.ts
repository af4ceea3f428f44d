import { sseEvent, type PageStreamFormat } from '../page-stream-format';

/** Claude's own stream events, as SillyTavern's page reads them for this source. */
export const claudeStreamFormat: PageStreamFormat = {
  opening: (identity) =>
    sseEvent({ type: 'message_start', message: { id: identity.id, type: 'message', role: 'assistant', model: identity.model, content: [] } }, 'message_start'),
  text: (_identity, text) => sseEvent({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }, 'content_block_delta'),
  reasoning: (_identity, thinking) => sseEvent({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking } }, 'content_block_delta'),
  idle: () => sseEvent({ type: 'ping' }, 'ping'),
  closing: () =>
    sseEvent({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null } }, 'message_delta') + sseEvent({ type: 'message_stop' }, 'message_stop'),
};
