import { z } from 'zod';
import { lazySchema } from '../lazy-schema';

/**
 * SillyTavern lorebooks as they cross from the page to the extension: what the script the background
 * runs in the page (src/hosts/sillytavern/lore-page-functions.ts) answers, parsed here with these caps;
 * anything else (more fields, more entries, longer texts) is refused whole.
 */

/** Caps on one reading; the page script cuts to the same numbers (lore-page-functions.ts). */
export const LORE_LIMITS = {
  maxBooks: 20,
  maxEntriesPerBook: 500,
  maxContentChars: 8_000,
  maxKeys: 20,
  maxKeyChars: 200,
  maxActivated: 200,
} as const;

const bookName = z.string().min(1).max(200);
const uid = z.number().int().min(0).max(10_000_000);
const key = z.string().max(LORE_LIMITS.maxKeyChars);

export const loreEntrySchema = lazySchema(() => z.strictObject({
  uid,
  keys: z.array(key).max(LORE_LIMITS.maxKeys),
  title: z.string().max(200),
  content: z.string().max(LORE_LIMITS.maxContentChars),
  disabled: z.boolean(),
}));
export type LoreEntry = z.infer<typeof loreEntrySchema>;

export const loreSourceSchema = z.enum(['character', 'chat', 'persona', 'global']);
export type LoreSourceKind = z.infer<typeof loreSourceSchema>;

export const loreBookSchema = lazySchema(() => z.strictObject({
  name: bookName,
  sources: z.array(loreSourceSchema).max(4),
  entries: z.array(loreEntrySchema).max(LORE_LIMITS.maxEntriesPerBook),
  /** The book had more than one reading carries. */
  cut: z.boolean().optional(),
}));
export type LoreBook = z.infer<typeof loreBookSchema>;

/** The books a chat uses and the entries its last generation activated. */
export const loreReadingSchema = lazySchema(() => z.strictObject({
  books: z.array(loreBookSchema).max(LORE_LIMITS.maxBooks),
  activated: z.array(z.strictObject({ book: bookName, uid })).max(LORE_LIMITS.maxActivated),
}));
export type LoreReading = z.infer<typeof loreReadingSchema>;

/** One entry to write: an edit of `uid` in `book`, or (no `uid`) a new entry. */
export const loreChangeSchema = lazySchema(() => z.strictObject({
  book: bookName,
  uid: uid.optional(),
  keys: z.array(z.string().min(1).max(LORE_LIMITS.maxKeyChars)).min(1).max(LORE_LIMITS.maxKeys),
  content: z.string().max(LORE_LIMITS.maxContentChars),
  title: z.string().max(200).optional(),
}));
export type LoreChange = z.infer<typeof loreChangeSchema>;

export const loreSaveRefusalSchema = z.enum(['lorebooks-unavailable', 'book-missing', 'entry-missing', 'save-failed']);
export type LoreSaveRefusal = z.infer<typeof loreSaveRefusalSchema>;

export const loreSaveAnswerSchema = lazySchema(() => z.discriminatedUnion('ok', [
  z.strictObject({ ok: z.literal(true), uid, created: z.boolean() }),
  z.strictObject({ ok: z.literal(false), refusal: loreSaveRefusalSchema }),
]));
export type LoreSaveAnswer = z.infer<typeof loreSaveAnswerSchema>;
