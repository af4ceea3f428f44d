import type { ChatTurnRequest } from '../chat-turn-request';
import { trimEndOf } from '../../text-edges';

/**
 * Is this an OpenAI-style chat-completions request: a POST to a path ending in `/chat/completions`
 * whose JSON body carries a `messages` array? Runs in the page's MAIN world, so it imports nothing.
 */
export function isOpenAiChatTurn(request: ChatTurnRequest): boolean {
  return request.method.toUpperCase() === 'POST' && isOpenAiChatPath(request.url) && hasMessages(request.body);
}

/** A cheap URL test the page hook makes before it reads any body. */
export function isOpenAiChatPath(url: string): boolean {
  return trimEndOf(new URL(url).pathname, '/').endsWith('/chat/completions');
}

function hasMessages(body: unknown): boolean {
  return typeof body === 'object' && body !== null && Array.isArray((body as { messages?: unknown }).messages);
}
