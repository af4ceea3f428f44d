import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { ModelBehaviorError } from '../errors';
import { chatLength, numberedChat, speakerOf, type NumberedMessage } from './chat/numbered-chat';
import { defineTool } from './tool-definition';

/** Caps per `chat.read_messages` call: a character budget, and a count of messages whatever it is. */
export const CHAT_READ_MESSAGES_LIMITS = {
  defaultMaxChars: 6_000,
  minMaxChars: 500,
  maxMaxChars: 16_000,
  maxMessages: 30,
} as const;

export const chatReadMessagesParameters = lazySchema(() => z.strictObject({
  from: z.number().int().min(1).describe('Number of the first message to read.'),
  to: z.number().int().min(1).optional().describe('Number of the last message to read (default: as many as fit).'),
  maxChars: z
    .number()
    .int()
    .min(CHAT_READ_MESSAGES_LIMITS.minMaxChars)
    .max(CHAT_READ_MESSAGES_LIMITS.maxMaxChars)
    .optional()
    .describe(`Character budget for the answer (default ${CHAT_READ_MESSAGES_LIMITS.defaultMaxChars}, at most ${CHAT_READ_MESSAGES_LIMITS.maxMaxChars}).`),
}));

function heading(message: NumberedMessage): string {
  return `### #${message.number} ${speakerOf(message)}`;
}

interface Reading {
  blocks: string[];
  read: number[];
  /** The message shown only in part (it alone was over the budget), and how much of it. */
  partial?: { number: number; shown: number; total: number };
  /** Messages in range left out because the budget or the count cap was reached. */
  left: NumberedMessage[];
}

/** Whole messages in order while they fit; a first message over the budget is shown in part. */
function readWithin(selected: readonly NumberedMessage[], budget: number): Reading {
  const reading: Reading = { blocks: [], read: [], left: [] };
  let used = 0;
  for (const [index, message] of selected.entries()) {
    const block = `${heading(message)}\n${message.text}`;
    const cost = block.length + 2;
    if (used + cost <= budget && reading.read.length < CHAT_READ_MESSAGES_LIMITS.maxMessages) {
      reading.blocks.push(block);
      reading.read.push(message.number);
      used += cost;
      continue;
    }
    if (index === 0) {
      const room = Math.max(0, budget - heading(message).length - 1);
      reading.blocks.push(`${heading(message)}\n${message.text.slice(0, room)}…`);
      reading.read.push(message.number);
      reading.partial = { number: message.number, shown: room, total: message.text.length };
      reading.left = selected.slice(1);
    } else reading.left = selected.slice(index);
    break;
  }
  return reading;
}

function cutNote(reading: Reading, budget: number): string | undefined {
  const notes: string[] = [];
  if (reading.partial) {
    const { number, shown, total } = reading.partial;
    const more = budget < CHAT_READ_MESSAGES_LIMITS.maxMaxChars ? ` Ask again with a larger maxChars (at most ${CHAT_READ_MESSAGES_LIMITS.maxMaxChars}) to see more of it.` : '';
    notes.push(`Cut: #${number} is shown up to character ${shown} of ${total}.${more}`);
  }
  const first = reading.left[0];
  const last = reading.left.at(-1);
  if (first && last) {
    const which = first === last ? `#${first.number} was` : `#${first.number}–#${last.number} were`;
    notes.push(`Not shown: ${which} past the budget. Read on with from: ${first.number}.`);
  }
  return notes.length === 0 ? undefined : `(${notes.join(' ')})`;
}

/** `chat.read_messages`: whole messages of the conversation by number, within a character budget. */
export const chatReadMessagesTool = defineTool({
  name: 'chat.read_messages',
  description:
    'Read messages of the chat this work is for, by number (from chat_search or earlier reads), whole while they fit the character budget; the answer says what was cut and where to read on.',
  parameters: chatReadMessagesParameters,
  readOnly: true,
  async execute(args, context) {
    if (args.to !== undefined && args.to < args.from) {
      throw new ModelBehaviorError('chat-read-range', `\`to\` (#${args.to}) comes before \`from\` (#${args.from}). Give to ≥ from, or leave it out.`);
    }
    const messages = numberedChat(context.chat);
    const total = messages.at(-1)?.number ?? 0;
    if (args.from > total) throw new ModelBehaviorError('chat-read-past-end', `There is no message #${args.from}. ${chatLength(messages)}`);
    const last = Math.min(args.to ?? total, total);
    const selected = messages.filter((message) => message.number >= args.from && message.number <= last);
    if (selected.length === 0) throw new ModelBehaviorError('chat-read-nothing', `Messages #${args.from}–#${last} are not chat messages (tool results are left out). ${chatLength(messages)}`);
    const budget = args.maxChars ?? CHAT_READ_MESSAGES_LIMITS.defaultMaxChars;
    const reading = readWithin(selected, budget);
    const note = cutNote(reading, budget);
    const content = [reading.blocks.join('\n\n'), ...(note ? [note] : []), chatLength(messages)].join('\n\n');
    const firstRead = reading.read[0] as number;
    return {
      content,
      lookup: {
        type: 'chat-messages-read',
        data: { from: firstRead, to: reading.read.at(-1) as number, messages: reading.read, ...(note ? { cut: true } : {}) },
      },
    };
  },
});
