import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { LORE_LIMITS } from '../messaging/lore-messages';
import { bookNames, findEntry, LORE_UNREADABLE, loreRef } from './lore-books';
import { defineTool } from './tool-definition';

export const loreProposeParameters = lazySchema(() => z.strictObject({
  ref: z.string().min(3).max(220).optional().describe('The entry to change, as the lore tools list it; absent: a new entry.'),
  book: z.string().min(1).max(200).describe('The book the entry is (or goes) in: one this chat uses.'),
  keys: z.array(z.string().trim().min(1).max(LORE_LIMITS.maxKeyChars)).min(1).max(LORE_LIMITS.maxKeys).describe('The keywords that activate the entry.'),
  content: z.string().min(1).max(LORE_LIMITS.maxContentChars).describe('The entry\'s whole new text.'),
  reason: z.string().min(1).max(1_000).describe('Why, in a sentence the user reads (e.g. which message told it).'),
}));

/** `lore.propose`: suggest a new or changed lorebook entry; only the user's Apply writes it. */
export const loreProposeTool = defineTool({
  name: 'lore.propose',
  description:
    "Suggest a new lorebook entry, or a change to one, for the user to review. It writes nothing: the user sees it in Retinue's side panel with the difference and applies or discards it. Give the entry's whole new keys and text, and why.",
  parameters: loreProposeParameters,
  async execute(args, context) {
    const lore = context.lore;
    const reading = lore ? await lore.reader.read(context.signal) : undefined;
    if (!lore || !reading) return { content: LORE_UNREADABLE };
    const book = reading.books.find((candidate) => candidate.name === args.book);
    if (!book) return { content: `This chat uses no book named "${args.book}". Its books: ${bookNames(reading)}. Propose the entry for one of them.` };
    let target: { uid: number; before: { keys: string[]; content: string; title: string } } | undefined;
    if (args.ref !== undefined) {
      const found = findEntry(reading, args.ref);
      if ('problem' in found) return { content: found.problem };
      if (found.book.name !== book.name) return { content: `${args.ref} is in the book "${found.book.name}", not "${book.name}": give the book it is in.` };
      target = { uid: found.entry.uid, before: { keys: found.entry.keys, content: found.entry.content, title: found.entry.title } };
    }
    await lore.propose({ book: book.name, keys: args.keys, content: args.content, reason: args.reason, ...(target ? { uid: target.uid, before: target.before } : {}) });
    const what = target ? `a change to ${loreRef(book.name, target.uid)}` : `a new entry in "${book.name}"`;
    return { content: `Proposed ${what}. Nothing was written: the user reviews it in the side panel and applies or discards it. Mention it in your result.` };
  },
});
