import { expect, test } from 'vitest';
import { pageChatOf } from '../../../src/bridge/page-chat';
import { readTavernChat } from '../../../src/page-hook/sillytavern-page';
import { chatIdentityOf } from '../../../src/runtime/chat-identity';
import { pageToBridgeMessageSchema } from '../../../src/messaging/page-messages';

const page = (context: unknown) => ({ SillyTavern: { getContext: () => context } });
/** The chat identity as it is made: read in the page by the page hook, made sense of by the bridge. */
const readSillyTavernChat = (target: object, requestType: string, href = 'http://127.0.0.1:8000/') => pageChatOf('sillytavern', readTavernChat(target), requestType, href);
const chat = [{ mes: 'Hello.', swipe_id: 0 }, { mes: 'Hi.' }, { mes: 'Welcome back.', swipe_id: 2 }];

test('a new message is written at the end of the open chat; a swipe redoes the last one with its swipe id', () => {
  expect(readSillyTavernChat(page({ chatId: 'Mira - 2026-11-30', chat }), 'normal')).toEqual({ conversationId: 'Mira - 2026-11-30', messageIndex: 3 });
  expect(readSillyTavernChat(page({ chatId: 'Mira - 2026-11-30', chat }), 'swipe')).toEqual({ conversationId: 'Mira - 2026-11-30', messageIndex: 2, swipeId: 2 });
});

test('a page without SillyTavern, or with a context that throws or has no chat id, names no conversation', () => {
  expect(readSillyTavernChat({}, 'normal')).toBeUndefined();
  expect(readSillyTavernChat({ SillyTavern: { getContext: () => { throw new Error('not ready'); } } }, 'normal')).toBeUndefined();
  expect(readSillyTavernChat(page({ chat }), 'normal')).toBeUndefined();
});

test("without SillyTavern's chat id the chat route in the page's address names the conversation", () => {
  expect(readSillyTavernChat({}, 'normal', 'http://127.0.0.1:8000/#/chat/conv-1764480000123')).toEqual({ conversationId: 'url:#/chat/conv-1764480000123', basis: 'url' });
});

test('what the page says that does not make an identity is left out', () => {
  expect(readSillyTavernChat(page({ chatId: 'Mira', chat: { length: 3 } }), 'normal')).toEqual({ conversationId: 'Mira' });
  expect(readSillyTavernChat(page({ chatId: { toString: () => 'x' }, chat }), 'normal')).toBeUndefined();
  expect(readSillyTavernChat(page({ chatId: 'Mira', chat: [...chat, { swipe_id: -1 }] }), 'swipe')).toEqual({ conversationId: 'Mira', messageIndex: 3 });
});

test("a page's chat state that is not an object is left out, and the turn still goes through", () => {
  const parsed = pageToBridgeMessageSchema().parse({ type: 'run-start', requestId: 'r1', adapter: 'sillytavern', body: {}, tavern: 'Mira' });
  expect(parsed).toEqual({ type: 'run-start', requestId: 'r1', adapter: 'sillytavern', body: {} });
});

test('the hashed identity: later turns of a chat stay in its conversation; the message key changes with any earlier message and with a continued reply', () => {
  const turn = { messages: [{ role: 'system' as const, content: 'You are Mara.' }, { role: 'user' as const, content: 'Hi' }, { role: 'assistant' as const, content: 'Hello' }, { role: 'user' as const, content: 'Go on' }] };
  const later = { messages: [...turn.messages, { role: 'system' as const, content: 'Lore at 10:05' }, { role: 'assistant' as const, content: 'So...' }, { role: 'user' as const, content: 'And?' }] };
  const edited = { messages: turn.messages.map((message, index) => (index === 2 ? { ...message, content: 'Hey' } : message)) };
  expect(chatIdentityOf(later, undefined).conversationId).toBe(chatIdentityOf(turn, undefined).conversationId);
  // A trailing assistant message is part of what was sent (a continue, or a page's whole log): another message.
  expect(chatIdentityOf({ messages: [...turn.messages, { role: 'assistant', content: 'draft' }] }, undefined).historyKey).not.toBe(chatIdentityOf(turn, undefined).historyKey);
  expect(chatIdentityOf(edited, undefined).historyKey).not.toBe(chatIdentityOf(turn, undefined).historyKey);
  const { conversationId: _guessed, basis: _basis, ...keys } = chatIdentityOf(turn, undefined);
  expect(chatIdentityOf(turn, { conversationId: 'c1' })).toEqual({ conversationId: 'c1', basis: 'page', ...keys });
});
