import type { PromptSnapshot, SnapshotMessage } from '../hosts/prompt-snapshot';
import type { ChatIdentity, PageChatIdentity } from '../records/chat-identity';
import { chatMessageText } from '../hosts/chat-text';

/** A 64-bit FNV-1a hash in hex: stable across browsers and the runner, no async crypto needed. */
export function textHash(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= BigInt(text.charCodeAt(index));
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

function conversational(messages: readonly SnapshotMessage[]): SnapshotMessage[] {
  // System text changes from turn to turn on many pages (lore, time, summaries); the chat does not.
  return messages.filter((message) => message.role === 'user' || message.role === 'assistant');
}

function keyOf(messages: readonly SnapshotMessage[]): string {
  return textHash(JSON.stringify(messages.map((message) => [message.role, chatMessageText(message)])));
}

/**
 * The run's conversation and message. The page's own ids win (SillyTavern's chat id, read by the
 * page hook; the runner's `--conversation`); otherwise the conversation is a hash of its opening,
 * up to its first user message. The history key covers the chat up to its last user message.
 */
export function chatIdentityOf(snapshot: PromptSnapshot, page: PageChatIdentity | undefined): ChatIdentity {
  const chat = conversational(snapshot.messages);
  const lastUser = chat.map((message) => message.role).lastIndexOf('user');
  const firstUser = chat.findIndex((message) => message.role === 'user');
  const historyKey = keyOf(chat.slice(0, lastUser + 1));
  if (page) return { ...page, historyKey };
  return { conversationId: `hash:${keyOf(chat.slice(0, firstUser + 1))}`, historyKey };
}
