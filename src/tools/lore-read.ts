import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { entryTitle, findEntry, LORE_UNREADABLE, loreRef } from './lore-books';
import { defineTool } from './tool-definition';

export const LORE_READ_LIMITS = { defaultChars: 4_000, maxChars: 8_000 } as const;

export const loreReadParameters = lazySchema(() => z.strictObject({
  ref: z.string().min(3).max(220).describe('The entry, as the lore tools list it (e.g. "Eldoria #3").'),
  from: z.number().int().min(0).optional().describe('Character to start at (for the rest of a long entry; default 0).'),
  maxChars: z.number().int().min(100).max(LORE_READ_LIMITS.maxChars).optional().describe(`How many characters to read (default ${LORE_READ_LIMITS.defaultChars}).`),
}));

/** `lore.read`: one lorebook entry's keys and text. */
export const loreReadTool = defineTool({
  name: 'lore.read',
  description: 'Read one lorebook entry whole: its title, keys and text. Long entries are read in parts with `from`.',
  parameters: loreReadParameters,
  readOnly: true,
  async execute(args, context) {
    const lore = context.lore;
    const reading = lore ? await lore.reader.read(context.signal) : undefined;
    if (!lore || !reading) return { content: LORE_UNREADABLE };
    const found = findEntry(reading, args.ref);
    if ('problem' in found) return { content: found.problem };
    const { book, entry } = found;
    const from = args.from ?? 0;
    const size = args.maxChars ?? LORE_READ_LIMITS.defaultChars;
    if (from > 0 && from >= entry.content.length) return { content: `${args.ref} has ${entry.content.length} characters; there is nothing from character ${from}.` };
    const part = entry.content.slice(from, from + size);
    const end = from + part.length;
    const rest = end < entry.content.length ? `\n\n(Characters ${from}–${end} of ${entry.content.length}; read on with from: ${end}.)` : '';
    lore.lookedUp('lore.read', [loreRef(book.name, entry.uid)]);
    const head = [`# ${loreRef(book.name, entry.uid)} — ${entryTitle(entry)}`, `Book: ${book.name} (${book.sources.join(', ')})`, `Keys: ${entry.keys.join(', ') || '(none)'}`];
    if (entry.disabled) head.push('This entry is disabled: the page never activates it.');
    return { content: `${head.join('\n')}\n\n${part}${rest}` };
  },
});
