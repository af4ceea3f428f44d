import type { PromptSnapshot, SnapshotMessage } from '../hosts/prompt-snapshot';
import { GUESSED_CONVERSATION_PREFIX, identityBasis, type ChatIdentity, type PageChatIdentity } from '../records/chat-identity';
import { chatMessageText } from '../hosts/chat-text';

/**
 * A 64-bit key from two 32-bit lanes (FNV-1a and a multiplicative mix), fed piece by piece: stable
 * across browsers and the runner, no async crypto, and cheap enough for a 200,000-character chat on
 * every turn (32-bit integer arithmetic instead of BigInt).
 */
export class KeyHash {
  private first = 0x811c9dc5;
  private second = 0x9747b28c;

  add(text: string): this {
    let first = this.first;
    let second = this.second;
    for (let index = 0; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      first = Math.imul(first ^ code, 0x01000193);
      second = Math.imul(second ^ code, 0x5bd1e995);
      second ^= second >>> 15;
    }
    this.first = first;
    this.second = second;
    return this;
  }

  /** Adds one message, framed so that no two different message lists feed the same characters. */
  addMessage(message: SnapshotMessage): this {
    const text = chatMessageText(message);
    return this.add(`${message.role}\u0000${text.length}\u0000${text}\u0001`);
  }

  value(): string {
    return (this.first >>> 0).toString(16).padStart(8, '0') + (this.second >>> 0).toString(16).padStart(8, '0');
  }
}

function isChatMessage(message: SnapshotMessage): boolean {
  return message.role === 'user' || message.role === 'assistant';
}

/** The first line of a text that is not blank (linear; no regex over page text). */
function firstLine(text: string): string {
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end === -1 ? text.length : end).trim();
    if (line !== '') return line;
    if (end === -1) break;
    start = end + 1;
  }
  return '';
}

/**
 * The guessed conversation: a hash of the system text before the chat, the chat up to its first
 * user message, and, for a page that sends the whole log as one assistant message after that user
 * line (KoboldAI Lite's chat mode), the log's first line. Two characters that both open with "Hi!"
 * are two conversations; a page whose leading system text changes each turn gets a new one each
 * turn (nothing is carried: a cost, never another chat's results).
 */
function openingKey(messages: readonly SnapshotMessage[]): string {
  const hash = new KeyHash();
  let index = 0;
  for (; index < messages.length && messages[index]?.role === 'system'; index += 1) hash.addMessage(messages[index] as SnapshotMessage);
  const chat = messages.slice(index).filter(isChatMessage);
  const firstUser = chat.findIndex((message) => message.role === 'user');
  for (const message of chat.slice(0, firstUser + 1)) hash.addMessage(message);
  const after = chat.slice(firstUser + 1);
  const wholeLog = firstUser >= 0 && after.length > 0 && after.every((message) => message.role === 'assistant');
  if (wholeLog) hash.add(`log\u0000${firstLine(chatMessageText(after[0] as SnapshotMessage))}`);
  return hash.value();
}

/**
 * The message key (every user and assistant message the page sent, in order: a new turn changes it
 * on any page shape, a swipe or regenerate that resends the same history keeps it) and the key the
 * turn before had (the chat up to its last-but-one user message), both in one pass.
 */
function messageKeys(messages: readonly SnapshotMessage[]): { historyKey: string; previousKey?: string } {
  const chat = messages.filter(isChatMessage);
  const users: number[] = [];
  chat.forEach((message, index) => message.role === 'user' && users.push(index));
  const previousEnd = users.length >= 2 ? (users.at(-2) as number) : -1;
  const hash = new KeyHash();
  let previousKey: string | undefined;
  chat.forEach((message, index) => {
    hash.addMessage(message);
    if (index === previousEnd) previousKey = hash.value();
  });
  return { historyKey: hash.value(), ...(previousKey ? { previousKey } : {}) };
}

/**
 * The run's conversation and message. The page's own ids win (SillyTavern's chat id, read by the
 * page hook; the runner's `--conversation`), then a chat id in the page's address (read by the page
 * hook with the request); otherwise the conversation is guessed from its opening. Read from a
 * snapshot with Retinue's progress lines already taken out.
 */
export function chatIdentityOf(snapshot: PromptSnapshot, page: PageChatIdentity | undefined): ChatIdentity {
  const keys = messageKeys(snapshot.messages);
  if (page) return { ...page, ...keys, basis: page.basis ?? 'page' };
  return { conversationId: `${GUESSED_CONVERSATION_PREFIX}${openingKey(snapshot.messages)}`, ...keys, basis: 'guessed' };
}

/**
 * Whether an earlier run's completed results may be offered to this one as "from your earlier
 * attempt at this reply": the same conversation and message, on an identity that is more than a
 * guess (on a guess a regenerate cannot be told from a new chat that opens alike, so the helpers
 * run again).
 */
export function mayReuseForSameMessage(earlier: ChatIdentity, current: ChatIdentity): boolean {
  if (earlier.conversationId !== current.conversationId || earlier.historyKey !== current.historyKey) return false;
  return identityBasis(current) !== 'guessed' && identityBasis(earlier) !== 'guessed';
}

/**
 * Whether results that came after an earlier run's reply may go to this run: a later message of the
 * same conversation. On a guess, only the turn that directly follows the earlier one (its history
 * continues the earlier run's), so a new chat that opens alike gets nothing.
 */
export function mayCarryToNextTurn(earlier: ChatIdentity, current: ChatIdentity): boolean {
  if (earlier.conversationId !== current.conversationId || earlier.historyKey === current.historyKey) return false;
  if (identityBasis(current) !== 'guessed') return true;
  return current.previousKey !== undefined && current.previousKey === earlier.historyKey;
}
