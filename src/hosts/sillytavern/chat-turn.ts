/** SillyTavern's Chat Completion generation endpoint. */
export const SILLYTAVERN_GENERATE_PATH = '/api/backends/chat-completions/generate';

/**
 * Generation types that are a chat turn the user sees as the character's reply. `continue` is left
 * out on purpose: it extends the last reply word for word, which a delegated run cannot do faithfully;
 * `quiet` (extensions' background prompts) and `impersonate` (writes the user's line) pass through too.
 */
const CHAT_TURN_TYPES = ['normal', 'regenerate', 'swipe'];

/** Is a generate request of this `type` a chat turn (with `messages`, detect-chat-turn.ts)? */
export function isSillyTavernChatTurnType(type: unknown): boolean {
  return typeof type === 'string' && CHAT_TURN_TYPES.includes(type);
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
