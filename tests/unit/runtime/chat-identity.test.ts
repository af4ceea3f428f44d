import { expect, test } from 'vitest';
import type { PromptSnapshot, SnapshotMessage } from '../../../src/hosts/prompt-snapshot';
import { chatIdentitySchema, identityBasis } from '../../../src/records/chat-identity';
import { chatIdentityOf, mayCarryToNextTurn, mayReuseForSameMessage } from '../../../src/runtime/chat-identity';

const system = (content: string): SnapshotMessage => ({ role: 'system', content });
const user = (content: string): SnapshotMessage => ({ role: 'user', content });
const assistant = (content: string): SnapshotMessage => ({ role: 'assistant', content });
const turn = (...messages: SnapshotMessage[]): PromptSnapshot => ({ messages });
const guessed = (snapshot: PromptSnapshot) => chatIdentityOf(snapshot, undefined);

test('case 6: two chats with different characters that both open with "Hi!" are two conversations', () => {
  const mara = guessed(turn(system('You are Mara, a lighthouse keeper.'), user('Hi!')));
  const brann = guessed(turn(system('You are Brann, a smith.'), user('Hi!')));

  expect(mara.conversationId).not.toBe(brann.conversationId);
  expect(mara.basis).toBe('guessed');
});

test('OpenAI-style page, guessed: later turns stay in the conversation; each new turn, and an edit of an earlier message, has a new message key', () => {
  const first = turn(system('You are Mara.'), user('Hi!'));
  const second = turn(system('You are Mara.'), user('Hi!'), assistant('Hello.'), user('Where is the lamp?'));
  const third = turn(...second.messages, assistant('Upstairs.'), user('Go up.'));
  const edited = turn(system('You are Mara.'), user('Hi!'), assistant('Hello there.'), user('Where is the lamp?'));
  const identities = [first, second, third, edited].map(guessed);

  expect(new Set(identities.map((identity) => identity.conversationId)).size).toBe(1);
  expect(new Set(identities.map((identity) => identity.historyKey)).size).toBe(4);
  // A regenerate resends the same history: the same message.
  expect(guessed(turn(...second.messages)).historyKey).toBe(identities[1]?.historyKey);
  // Each turn knows the key of the turn before it.
  expect(identities[1]?.previousKey).toBe(identities[0]?.historyKey);
  expect(identities[2]?.previousKey).toBe(identities[1]?.historyKey);
  expect(identities[0]?.previousKey).toBeUndefined();
});

test('KoboldAI Lite shape (the whole log as one assistant message after a fixed user line): the second message is a new message, not a swipe', () => {
  const fixed = user('[Continue the chat log below.]');
  const first = guessed(turn(system('You are Mara.'), fixed, assistant('\nYou: Hi!\nMara:')));
  const second = guessed(turn(system('You are Mara.'), fixed, assistant('\nYou: Hi!\nMara: Hello.\nYou: Where is the lamp?\nMara:')));
  const otherChat = guessed(turn(system('You are Mara.'), fixed, assistant('\nYou: Good evening.\nMara:')));

  expect(second.historyKey).not.toBe(first.historyKey);
  expect(second.conversationId).toBe(first.conversationId);
  // The log's opening line is the chat's opening: another chat with the same character is another conversation.
  expect(otherChat.conversationId).not.toBe(first.conversationId);
  expect(mayReuseForSameMessage(first, second)).toBe(false);
});

test('SillyTavern: the page’s ids win, with the message key of what was sent; a swipe resends the same history', () => {
  const sent = turn(system('You are Mara.'), user('Hi!'));
  const normal = chatIdentityOf(sent, { conversationId: 'Mara - 2026-11-30', messageIndex: 1 });
  const swipe = chatIdentityOf(sent, { conversationId: 'Mara - 2026-11-30', messageIndex: 1, swipeId: 1 });

  expect(normal).toEqual({ conversationId: 'Mara - 2026-11-30', messageIndex: 1, historyKey: guessed(sent).historyKey, basis: 'page' });
  expect(mayReuseForSameMessage(normal, swipe)).toBe(true);
});

test('a chat named by the page’s address: a regenerate reuses, a new chat at another address does not, even when it opens alike', () => {
  const sent = turn(user('Hi!'));
  const chatA = chatIdentityOf(sent, { conversationId: 'url:#/chat/conv-1764480000123', basis: 'url' });
  const chatB = chatIdentityOf(sent, { conversationId: 'url:#/chat/conv-1764480999999', basis: 'url' });

  expect(chatA.basis).toBe('url');
  expect(mayReuseForSameMessage(chatA, chatIdentityOf(sent, { conversationId: 'url:#/chat/conv-1764480000123', basis: 'url' }))).toBe(true);
  expect(mayReuseForSameMessage(chatA, chatB)).toBe(false);
});

test('a guess never carries results into another conversation: no reuse for the same message, late results only to the very next turn', () => {
  const opening = turn(system('You are Mara.'), user('Hi!'));
  const chatA1 = guessed(opening);
  const chatB1 = guessed(opening);
  const chatA2 = guessed(turn(...opening.messages, assistant('Hello.'), user('Where is the lamp?')));
  const chatA3 = guessed(turn(...opening.messages, assistant('Hello.'), user('Where is the lamp?'), assistant('Upstairs.'), user('Go.')));

  expect(mayReuseForSameMessage(chatA1, chatB1)).toBe(false);
  expect(mayCarryToNextTurn(chatA1, chatB1)).toBe(false);
  expect(mayCarryToNextTurn(chatA1, chatA2)).toBe(true);
  expect(mayCarryToNextTurn(chatA1, chatA3)).toBe(false);
  // With the page's ids, any later message of the chat may have them.
  const page = (snapshot: PromptSnapshot) => chatIdentityOf(snapshot, { conversationId: 'c1' });
  expect(mayCarryToNextTurn(page(opening), page(turn(...opening.messages, assistant('Hello.'), user('Where is the lamp?'), assistant('Upstairs.'), user('Go.'))))).toBe(true);
});

test('a run stored before identities said how sure they are still loads, its basis read from its conversation id', () => {
  const stored = [
    { conversationId: 'Mara - 2026-11-30', messageIndex: 3, historyKey: 'k1' },
    { conversationId: 'hash:0123456789abcdef', historyKey: 'k2' },
  ].map((record) => chatIdentitySchema().parse(record));

  expect(stored.map(identityBasis)).toEqual(['page', 'guessed']);
});
