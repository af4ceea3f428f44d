import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import type { SnapshotMessage } from '../hosts/prompt-snapshot';
import { chatMessageText } from '../hosts/chat-text';
import { capText } from '../rendering/markdown-rendering';
import { defineTool } from './tool-definition';

/** Caps per `chat.read` call, so one call never floods the caller's context. */
export const CHAT_READ_LIMITS = {
  defaultCount: 10,
  maxCount: 30,
  maxCharsPerMessage: 4_000,
  previewChars: 240,
  maxMatches: 20,
  snippetRadius: 160,
  maxAnswerChars: 16_000,
} as const;

export const chatReadParameters = lazySchema(() => z.strictObject({
  from: z.number().int().min(1).optional().describe('Number of the first message to read (messages are numbered from 1).'),
  count: z
    .number()
    .int()
    .min(1)
    .max(CHAT_READ_LIMITS.maxCount)
    .optional()
    .describe(`How many messages to read (default ${CHAT_READ_LIMITS.defaultCount}, at most ${CHAT_READ_LIMITS.maxCount}).`),
  query: z.string().min(1).max(200).optional().describe('Words to search for (case does not matter); returns the messages that contain them.'),
}));

interface NumberedMessage {
  number: number;
  message: SnapshotMessage;
  text: string;
}

function speaker(message: SnapshotMessage): string {
  return message.name ? `${message.role} (${message.name})` : message.role;
}

function numbered(chat: readonly SnapshotMessage[]): NumberedMessage[] {
  return chat
    .map((message, index) => ({ number: index + 1, message, text: chatMessageText(message) }))
    .filter((entry) => entry.message.role !== 'tool');
}

function overview(messages: NumberedMessage[]): string {
  const last = messages.slice(-CHAT_READ_LIMITS.defaultCount);
  const lines = last.map((entry) => {
    const preview = entry.text.replace(/\s+/g, ' ').slice(0, CHAT_READ_LIMITS.previewChars);
    return `#${entry.number} ${speaker(entry.message)}: ${preview}${entry.text.length > CHAT_READ_LIMITS.previewChars ? '…' : ''}`;
  });
  const total = messages.at(-1)?.number ?? 0;
  return [
    `The conversation has ${total} messages (#1–#${total}). The last ${last.length}, shortened:`,
    ...lines,
    '',
    'Read whole messages with `from` and `count`, or search with `query`.',
  ].join('\n');
}

function range(messages: NumberedMessage[], from: number | undefined, count: number): string {
  const total = messages.at(-1)?.number ?? 0;
  const start = from ?? Math.max(1, total - count + 1);
  if (start > total) return `There is no message #${start}: the conversation has ${total} messages (#1–#${total}).`;
  const selected = messages.filter((entry) => entry.number >= start && entry.number < start + count);
  const blocks = selected.map((entry) => {
    const text = capText(entry.text, CHAT_READ_LIMITS.maxCharsPerMessage, '… (message cut)');
    return `### #${entry.number} ${speaker(entry.message)}\n${text}`;
  });
  return blocks.join('\n\n');
}

function search(messages: NumberedMessage[], query: string): string {
  const needle = query.toLowerCase();
  const hits = messages.filter((entry) => entry.text.toLowerCase().includes(needle));
  if (hits.length === 0) return `No message contains "${query}".`;
  const shown = hits.slice(0, CHAT_READ_LIMITS.maxMatches).map((entry) => {
    const at = entry.text.toLowerCase().indexOf(needle);
    const start = Math.max(0, at - CHAT_READ_LIMITS.snippetRadius);
    const end = Math.min(entry.text.length, at + needle.length + CHAT_READ_LIMITS.snippetRadius);
    const snippet = `${start > 0 ? '…' : ''}${entry.text.slice(start, end).replace(/\s+/g, ' ')}${end < entry.text.length ? '…' : ''}`;
    return `- #${entry.number} ${speaker(entry.message)}: ${snippet}`;
  });
  const more = hits.length > shown.length ? `\n(${hits.length - shown.length} more matches not shown; search for something narrower.)` : '';
  const count = hits.length === 1 ? '1 message contains' : `${hits.length} messages contain`;
  return `${count} "${query}":\n${shown.join('\n')}${more}\n\nRead a whole message with \`from\` set to its number and \`count\` 1.`;
}

/** `chat.read`: read or search the chat the reply is for. */
export const chatReadTool = defineTool({
  name: 'chat.read',
  description:
    'Read the chat conversation this work is for. With no arguments: an overview of the latest messages. With `from`/`count`: whole messages by number. With `query`: the messages that mention something.',
  parameters: chatReadParameters,
  readOnly: true,
  async execute(args, context) {
    const messages = numbered(context.chat);
    if (messages.length === 0) return { content: 'The conversation is empty.' };
    let answer: string;
    if (args.query !== undefined) answer = search(messages, args.query);
    else if (args.from !== undefined || args.count !== undefined) answer = range(messages, args.from, args.count ?? CHAT_READ_LIMITS.defaultCount);
    else answer = overview(messages);
    return { content: capText(answer, CHAT_READ_LIMITS.maxAnswerChars, '… (answer cut; ask for fewer messages)') };
  },
});
