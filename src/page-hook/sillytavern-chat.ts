/**
 * The conversation and message of a SillyTavern chat turn, read from `SillyTavern.getContext()` at
 * the time of the request: `chatId` (the open chat's file name), `chat` (its messages; a message's
 * `swipe_id` is the swipe it shows). A swipe regenerates the last message; any other turn writes
 * a new one at the end. MAIN-world code: plain checks, no zod; the bridge validates what is sent.
 * Checked against SillyTavern 1.18.0 (public/scripts/st-context.js, getContext()).
 */
export interface PageChatIdentityFields {
  conversationId: string;
  messageIndex?: number;
  swipeId?: number;
  basis?: 'page' | 'url';
}

interface SillyTavernContextLike {
  chatId?: unknown;
  chat?: unknown;
}

function contextOf(target: object): SillyTavernContextLike | undefined {
  try {
    const global = (target as { SillyTavern?: { getContext?: () => unknown } }).SillyTavern;
    const context = typeof global?.getContext === 'function' ? global.getContext() : undefined;
    return typeof context === 'object' && context !== null ? (context as SillyTavernContextLike) : undefined;
  } catch {
    return undefined;
  }
}

export function readSillyTavernChat(target: object, requestType: unknown): PageChatIdentityFields | undefined {
  const context = contextOf(target);
  const chatId = context?.chatId;
  if (typeof chatId !== 'string' && typeof chatId !== 'number') return undefined;
  const conversationId = String(chatId).slice(0, 200);
  if (conversationId === '') return undefined;
  if (!Array.isArray(context?.chat)) return { conversationId };
  const messages = context.chat as unknown[];
  const swiping = requestType === 'swipe' && messages.length > 0;
  const messageIndex = swiping ? messages.length - 1 : messages.length;
  const last = messages.at(-1) as { swipe_id?: unknown } | undefined;
  const swipeId = swiping && typeof last?.swipe_id === 'number' && Number.isInteger(last.swipe_id) && last.swipe_id >= 0 ? last.swipe_id : undefined;
  return { conversationId, messageIndex, ...(swipeId !== undefined ? { swipeId } : {}) };
}
