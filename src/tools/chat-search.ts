import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { ModelBehaviorError } from '../errors';
import { capText } from '../rendering/markdown-rendering';
import { chatLength, numberedChat, oneLine, speakerOf, type NumberedMessage } from './chat/numbered-chat';
import { excerptAround, firstHit, searchTerms } from './chat/text-search';
import { defineTool } from './tool-definition';

/** Caps per `chat.search` call, so one search never floods the caller's context. */
export const CHAT_SEARCH_LIMITS = {
  defaultLimit: 10,
  maxLimit: 25,
  maxQueryChars: 200,
  /** Characters either side of the first hit in an excerpt. */
  excerptRadius: 120,
  /** Message numbers of matches kept in the journal for the side panel. */
  maxJournaledNumbers: 50,
  maxAnswerChars: 8_000,
} as const;

export const chatSearchParameters = lazySchema(() => z.strictObject({
  query: z
    .string()
    .min(1)
    .max(CHAT_SEARCH_LIMITS.maxQueryChars)
    .describe('Words to find (case does not matter); a message matches when it holds all of them.'),
  role: z.enum(['user', 'assistant', 'system']).optional().describe('Only messages of this role.'),
  from: z.number().int().min(1).optional().describe('Only messages from this number on.'),
  to: z.number().int().min(1).optional().describe('Only messages up to this number.'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(CHAT_SEARCH_LIMITS.maxLimit)
    .optional()
    .describe(`Most matches to list (default ${CHAT_SEARCH_LIMITS.defaultLimit}, at most ${CHAT_SEARCH_LIMITS.maxLimit}).`),
}));
export type ChatSearchArguments = z.output<typeof chatSearchParameters>;

interface Match {
  message: NumberedMessage;
  at: number;
}

function matchLine({ message, at }: Match): string {
  const piece = excerptAround(message.text, at, CHAT_SEARCH_LIMITS.excerptRadius);
  return `- #${message.number} ${speakerOf(message)}: ${piece.cutBefore ? '…' : ''}${oneLine(piece.text)}${piece.cutAfter ? '…' : ''}`;
}

function scopeWords(args: ChatSearchArguments): string {
  const parts = [args.role ? `${args.role} messages` : 'messages'];
  if (args.from !== undefined && args.to !== undefined) parts.push(`#${args.from}–#${args.to}`);
  else if (args.from !== undefined) parts.push(`from #${args.from}`);
  else if (args.to !== undefined) parts.push(`up to #${args.to}`);
  return parts.join(' ');
}

/** The matches, newest first: every message in scope that holds every word of the query. */
function findMatches(messages: readonly NumberedMessage[], args: ChatSearchArguments, terms: readonly string[]): Match[] {
  const matches: Match[] = [];
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index] as NumberedMessage;
    if (args.to !== undefined && message.number > args.to) continue;
    if (args.from !== undefined && message.number < args.from) break;
    if (args.role !== undefined && message.role !== args.role) continue;
    const at = firstHit(message.text.toLowerCase(), terms);
    if (at !== -1) matches.push({ message, at });
  }
  return matches;
}

/** `chat.search`: find the messages of the conversation that mention something, newest first. */
export const chatSearchTool = defineTool({
  name: 'chat.search',
  description:
    'Search the chat this work is for: the messages that hold all your words, newest first, each with its number and a short excerpt. Read whole messages with chat_read_messages.',
  parameters: chatSearchParameters,
  readOnly: true,
  async execute(args, context) {
    const { terms, ignored } = searchTerms(args.query);
    if (terms.length === 0) throw new ModelBehaviorError('chat-search-empty-query', 'The query has no words. Call chat_search with the words to find.');
    if (args.from !== undefined && args.to !== undefined && args.from > args.to) {
      throw new ModelBehaviorError('chat-search-range', `\`from\` (#${args.from}) comes after \`to\` (#${args.to}). Give from ≤ to, or leave one out.`);
    }
    const messages = numberedChat(context.chat);
    const matches = findMatches(messages, args, terms);
    const limit = args.limit ?? CHAT_SEARCH_LIMITS.defaultLimit;
    const shown = matches.slice(0, limit);
    const lookup = {
      type: 'chat-searched' as const,
      data: {
        query: args.query,
        ...(args.role ? { role: args.role } : {}),
        ...(args.from !== undefined ? { from: args.from } : {}),
        ...(args.to !== undefined ? { to: args.to } : {}),
        found: matches.length,
        messages: shown.map((match) => match.message.number).slice(0, CHAT_SEARCH_LIMITS.maxJournaledNumbers),
      },
    };
    const words = terms.map((term) => `"${term}"`).join(', ');
    const ignoredNote = ignored > 0 ? ` (${ignored} more words ignored: search with at most 8)` : '';
    if (matches.length === 0) {
      return { content: `No ${scopeWords(args)} hold ${words}${ignoredNote}. ${chatLength(messages)} Try fewer or other words.`, lookup };
    }
    const count = matches.length === 1 ? '1 message holds' : `${matches.length} messages hold`;
    const lines = [`${count} ${words}${ignoredNote}, newest first:`, ...shown.map(matchLine)];
    if (matches.length > shown.length) {
      const oldestShown = (shown.at(-1) as Match).message.number;
      lines.push(`(${matches.length - shown.length} older matches not listed: search again with \`to\` ${oldestShown - 1}, or with narrower words.)`);
    }
    lines.push('', `${chatLength(messages)} Read a whole message with chat_read_messages (from: its number).`);
    const content = capText(lines.join('\n'), CHAT_SEARCH_LIMITS.maxAnswerChars, '… (answer cut; ask for fewer matches)');
    return { content, lookup };
  },
});
