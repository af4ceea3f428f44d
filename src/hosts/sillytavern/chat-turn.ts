import type { ChatTurnRequest } from '../chat-turn-request';
import { trimEndOf } from '../../text-edges';

/** SillyTavern's Chat Completion generation endpoint. */
export const SILLYTAVERN_GENERATE_PATH = '/api/backends/chat-completions/generate';

/**
 * Generation types that are a chat turn the user sees as the character's reply. `continue` is left
 * out on purpose: it extends the last reply word for word, which a delegated run cannot do faithfully;
 * `quiet` (extensions' background prompts) and `impersonate` (writes the user's line) pass through too.
 */
const CHAT_TURN_TYPES = ['normal', 'regenerate', 'swipe'];

/**
 * Is this a SillyTavern chat turn: a POST to the generate endpoint with `messages` and a chat-turn
 * `type`? Runs in the page's MAIN world, so it imports nothing.
 */
export function isSillyTavernChatTurn(request: ChatTurnRequest): boolean {
  if (request.method.toUpperCase() !== 'POST' || !isSillyTavernGeneratePath(request.url)) return false;
  const body = request.body as { messages?: unknown; type?: unknown } | null;
  if (typeof body !== 'object' || body === null || !Array.isArray(body.messages)) return false;
  return typeof body.type === 'string' && CHAT_TURN_TYPES.includes(body.type);
}

/** A cheap URL test the page hook makes before it reads any body. */
export function isSillyTavernGeneratePath(url: string): boolean {
  return trimEndOf(new URL(url).pathname, '/').endsWith(SILLYTAVERN_GENERATE_PATH);
}

/**
 * The status the provider behind SillyTavern's server answered. For a streamed request SillyTavern
 * relays the provider's status and reason phrase, except a 401, which it sends as 400 with the reason
 * phrase `Unauthorized` (a 401 would reset the browser's Basic auth). A host call needs the 401 back so
 * the run's error says to fix the key; a plain 400 (reason `Bad Request`) stays 400.
 */
export function sillyTavernProviderStatus(status: number, statusText: string): number {
  return status === 400 && statusText.trim().toLowerCase() === 'unauthorized' ? 401 : status;
}
