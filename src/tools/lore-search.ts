import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { capText } from '../rendering/markdown-rendering';
import { bookNames, entryLine, LORE_UNREADABLE, loreRef } from './lore-books';
import { defineTool } from './tool-definition';

export const LORE_SEARCH_LIMITS = { maxQueryChars: 200, maxMatches: 20, maxAnswerChars: 12_000 } as const;

export const loreSearchParameters = lazySchema(() => z.strictObject({
  query: z.string().trim().min(1).max(LORE_SEARCH_LIMITS.maxQueryChars).describe('Words to find in entries\' keys, titles and text (case does not matter).'),
  book: z.string().min(1).max(200).optional().describe('Only this book (its name as listed); absent: every book this chat uses.'),
}));

/** `lore.search`: find entries in every book the chat uses, whether they activated or not. */
export const loreSearchTool = defineTool({
  name: 'lore.search',
  description:
    "Search the lorebooks this chat uses (the character's, the chat's, the persona's and the global ones), active this turn or not, in entries' keys, titles and text. Gives references with titles and first lines; read one whole with lore_read.",
  parameters: loreSearchParameters,
  readOnly: true,
  async execute(args, context) {
    const lore = context.lore;
    const reading = lore ? await lore.reader.read(context.signal) : undefined;
    if (!lore || !reading) return { content: LORE_UNREADABLE };
    const books = args.book === undefined ? reading.books : reading.books.filter((book) => book.name === args.book);
    if (books.length === 0) {
      return { content: args.book === undefined ? 'This chat uses no lorebook.' : `This chat uses no book named "${args.book}". Its books: ${bookNames(reading)}.` };
    }
    const needle = args.query.toLowerCase();
    const lines: string[] = [];
    const refs: string[] = [];
    let matches = 0;
    for (const book of books) {
      for (const entry of book.entries) {
        // indexOf over each field: linear in the text, whatever the query.
        const found = [entry.title, entry.content, ...entry.keys].some((field) => field.toLowerCase().includes(needle));
        if (!found) continue;
        matches += 1;
        if (lines.length < LORE_SEARCH_LIMITS.maxMatches) {
          lines.push(entryLine(book, entry));
          refs.push(loreRef(book.name, entry.uid));
        }
      }
    }
    lore.lookedUp('lore.search', [`"${args.query}"`, ...refs]);
    if (matches === 0) return { content: `No entry in ${args.book === undefined ? bookNames(reading) : `"${args.book}"`} mentions "${args.query}".` };
    const more = matches > lines.length ? `\n(${matches - lines.length} more matches not shown; search for something narrower.)` : '';
    const cut = books.some((book) => book.cut) ? '\n(Some books are too large to search whole; only their first entries were searched.)' : '';
    return { content: capText(`${matches} entries mention "${args.query}":\n${lines.join('\n')}${more}${cut}`, LORE_SEARCH_LIMITS.maxAnswerChars, '… (answer cut)') };
  },
});
