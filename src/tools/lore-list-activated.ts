import { z } from 'zod';
import { capText } from '../rendering/markdown-rendering';
import { entryLine, LORE_UNREADABLE, loreRef } from './lore-books';
import { defineTool } from './tool-definition';

/** The most activated entries one answer lists. */
export const MAX_LISTED_ACTIVATED = 60;

/** `lore.list_activated`: the lorebook entries the page put into this turn's prompt. */
export const loreListActivatedTool = defineTool({
  name: 'lore.list_activated',
  description:
    "List the lorebook entries that the chat page activated for this turn (their keywords matched, so the model writing the reply sees them): each as a reference with its title, keys and first line. Read one whole with lore_read; find entries that did not activate with lore_search.",
  parameters: z.strictObject({}),
  readOnly: true,
  async execute(_args, context) {
    const lore = context.lore;
    const reading = lore ? await lore.reader.read(context.signal) : undefined;
    if (!lore || !reading) return { content: LORE_UNREADABLE };
    const lines: string[] = [];
    const refs: string[] = [];
    for (const activated of reading.activated.slice(0, MAX_LISTED_ACTIVATED)) {
      const book = reading.books.find((candidate) => candidate.name === activated.book);
      const entry = book?.entries.find((candidate) => candidate.uid === activated.uid);
      if (!book || !entry) continue;
      lines.push(entryLine(book, entry));
      refs.push(loreRef(book.name, entry.uid));
    }
    lore.lookedUp('lore.list_activated', refs);
    if (lines.length === 0) return { content: 'No lorebook entry was activated for this turn. Search the chat\'s books with lore_search.' };
    const more = reading.activated.length > MAX_LISTED_ACTIVATED ? `\n(${reading.activated.length - MAX_LISTED_ACTIVATED} more not listed.)` : '';
    return { content: capText(`${lines.length} entries were activated for this turn:\n${lines.join('\n')}${more}`, 12_000, '… (list cut)') };
  },
});
