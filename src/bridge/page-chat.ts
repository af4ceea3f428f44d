import { chatRouteOfUrl } from '../hosts/chat-url';
import type { HostAdapterId } from '../hosts/chat-turn-request';
import { pageChatIdentitySchema, type PageChatIdentity } from '../records/chat-identity';

/**
 * The conversation and message of a chat turn: for SillyTavern, what the page hook read of
 * `getContext()` at the time of the request (`chatId`, the open chat's file name; the number of
 * messages; the last one's `swipe_id`, the swipe it shows): a swipe regenerates the last message, any
 * other turn writes a new one at the end. Else the chat route the page's address names (`#/chat/<id>`,
 * `/c/<id>`), read by the bridge itself, which shares the page's address. Undefined when neither names
 * a chat, or what the page said does not make one.
 * Checked against SillyTavern 1.18.0 (public/scripts/st-context.js, getContext()).
 */
export function pageChatOf(adapter: HostAdapterId, tavern: Record<string, unknown> | undefined, requestType: unknown, href: string): PageChatIdentity | undefined {
  const chat = (adapter === 'sillytavern' ? sillyTavernChat(tavern, requestType) : undefined) ?? addressChat(href);
  const parsed = chat && pageChatIdentitySchema().safeParse(chat);
  return parsed?.success ? parsed.data : undefined;
}

function sillyTavernChat(tavern: Record<string, unknown> | undefined, requestType: unknown): PageChatIdentity | undefined {
  const { chatId, length, swipe_id: swipeId } = tavern ?? {};
  if (typeof chatId !== 'string' && typeof chatId !== 'number') return undefined;
  const conversationId = String(chatId).slice(0, 200);
  if (conversationId === '') return undefined;
  if (typeof length !== 'number') return { conversationId };
  const swiping = requestType === 'swipe' && length > 0;
  const swipe = swiping && typeof swipeId === 'number' && Number.isInteger(swipeId) && swipeId >= 0 ? { swipeId } : {};
  return { conversationId, messageIndex: swiping ? length - 1 : length, ...swipe };
}

/** The chat the page's address names, as a conversation id `url:<route>`. */
function addressChat(href: string): PageChatIdentity | undefined {
  const route = chatRouteOfUrl(href);
  return route ? { conversationId: `url:${route}`.slice(0, 200), basis: 'url' } : undefined;
}
