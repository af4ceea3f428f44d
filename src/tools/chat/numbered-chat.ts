import { chatMessageText } from '../../hosts/chat-text';
import type { SnapshotMessage } from '../../hosts/prompt-snapshot';

/**
 * The run's conversation as the chat tools speak of it: each message by its number, its place in
 * the prompt snapshot counted from 1 (the same numbers `chat.read` uses, so a number one tool gives
 * another reads). Tool results of the page's own tools are left out but keep their numbers.
 */
export interface NumberedMessage {
  number: number;
  role: SnapshotMessage['role'];
  name?: string;
  text: string;
}

export function numberedChat(chat: readonly SnapshotMessage[]): NumberedMessage[] {
  const messages: NumberedMessage[] = [];
  chat.forEach((message, index) => {
    if (message.role === 'tool') return;
    messages.push({ number: index + 1, role: message.role, ...(message.name ? { name: message.name } : {}), text: chatMessageText(message) });
  });
  return messages;
}

/** `user`, or `assistant (Mira)` when the page named the speaker. */
export function speakerOf(message: NumberedMessage): string {
  return message.name ? `${message.role} (${message.name})` : message.role;
}

/** "The chat has 41 messages (#1–#41)." — what every chat tool answer can end with. */
export function chatLength(messages: readonly NumberedMessage[]): string {
  const total = messages.at(-1)?.number ?? 0;
  if (total === 0) return 'The chat is empty.';
  return total === 1 ? 'The chat has 1 message (#1).' : `The chat has ${total} messages (#1–#${total}).`;
}

/** Collapses runs of whitespace to one space, in one pass (no regex over page text). */
export function oneLine(text: string): string {
  let out = '';
  let pendingSpace = false;
  for (const character of text) {
    if (character === ' ' || character === '\n' || character === '\t' || character === '\r' || character === '\f' || character === '\v' || character === '\u00a0') {
      pendingSpace = out.length > 0;
      continue;
    }
    if (pendingSpace) out += ' ';
    pendingSpace = false;
    out += character;
  }
  return out;
}
