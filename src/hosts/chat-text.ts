import type { SnapshotMessage } from './prompt-snapshot';

/** The text of a chat message: a string, or the text parts of a content-part list. */
export function chatMessageText(message: SnapshotMessage): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (part.type === 'text' && typeof part['text'] === 'string' ? part['text'] : `[${part.type}]`))
    .join('\n');
}

/** The user and assistant messages of the host conversation (what `chat.read` and briefings show). */
export function conversationMessages(messages: readonly SnapshotMessage[]): SnapshotMessage[] {
  return messages.filter((message) => message.role === 'user' || message.role === 'assistant');
}
