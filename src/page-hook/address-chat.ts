import { chatRouteOfUrl } from '../hosts/chat-url';
import type { PageChatIdentityFields } from './sillytavern-chat';

/**
 * The chat the page's address names at the time of the request (`#/chat/<id>`, `/c/<id>`), as a
 * conversation id `url:<route>`; undefined on a page whose address names no chat.
 */
export function readChatFromAddress(href: string): PageChatIdentityFields | undefined {
  const route = chatRouteOfUrl(href);
  return route ? { conversationId: `url:${route}`.slice(0, 200), basis: 'url' } : undefined;
}
