import type { LoreBook, LoreEntry, LoreReading } from '../messaging/lore-messages';

/** Reads the page's lorebooks for one tool call; undefined when the page did not answer. */
export interface LoreReader {
  read(signal: AbortSignal): Promise<LoreReading | undefined>;
}

/** A lore change a helper suggests; it waits for the user's Apply in the side panel. */
export interface LoreProposalInput {
  book: string;
  /** The entry it edits; absent for a new entry. */
  uid?: number;
  keys: string[];
  content: string;
  reason: string;
  /** The entry as it was read, for the side panel's diff. */
  before?: { keys: string[]; content: string; title: string };
}

/** What the lore tools may use in one call: the page's books, and where a proposal and a look-up are recorded. */
export interface LorePort {
  reader: LoreReader;
  propose(proposal: LoreProposalInput): Promise<void>;
  /** What the caller looked up (entries by reference, or a search), for the side panel. */
  lookedUp(tool: string, labels: readonly string[]): void;
}

/** The answer when the page cannot be read now (closed, reloading, or Retinue switched off for it). */
export const LORE_UNREADABLE =
  "The chat page's lorebooks cannot be read right now (the page may be closed or reloading). Go on without them, and say so in your result.";

/** A model-facing name of one entry: its book and number, e.g. `Eldoria #3`. */
export function loreRef(book: string, uid: number): string {
  return `${book} #${uid}`;
}

/** A reference read back: the book is everything before the last ` #`, the number after it. */
export function parseLoreRef(ref: string): { book: string; uid: number } | undefined {
  const at = ref.lastIndexOf(' #');
  if (at <= 0) return undefined;
  const number = ref.slice(at + 2).trim();
  if (!/^\d{1,8}$/.test(number)) return undefined;
  return { book: ref.slice(0, at).trim(), uid: Number(number) };
}

/** An entry's title: its comment (SillyTavern's title field), else its first key. */
export function entryTitle(entry: LoreEntry): string {
  return entry.title.trim() || entry.keys[0] || '(untitled)';
}

/** The first line of an entry's text, shortened. */
export function entryGist(entry: LoreEntry, maxChars = 120): string {
  const line = entry.content.trimStart().split('\n', 1)[0] ?? '';
  return line.length > maxChars ? `${line.slice(0, maxChars - 1)}…` : line;
}

/** One line naming an entry for a list: reference, title, keys, gist. */
export function entryLine(book: LoreBook, entry: LoreEntry): string {
  const keys = entry.keys.length > 0 ? ` (keys: ${entry.keys.join(', ')})` : '';
  const off = entry.disabled ? ' [disabled]' : '';
  return `- ${loreRef(book.name, entry.uid)} — ${entryTitle(entry)}${keys}${off}: ${entryGist(entry)}`;
}

/** The chat's books, named for a message that lists them. */
export function bookNames(reading: LoreReading): string {
  return reading.books.length === 0 ? 'none' : reading.books.map((book) => `"${book.name}"`).join(', ');
}

/** The entry a reference names, or why there is none (model-facing). */
export function findEntry(reading: LoreReading, ref: string): { book: LoreBook; entry: LoreEntry } | { problem: string } {
  const parsed = parseLoreRef(ref);
  if (!parsed) return { problem: `"${ref}" is not an entry reference: write it as the lore tools list it, a book name, a space, # and a number (e.g. "Eldoria #3").` };
  const book = reading.books.find((candidate) => candidate.name === parsed.book);
  if (!book) return { problem: `This chat uses no book named "${parsed.book}". Its books: ${bookNames(reading)}.` };
  const entry = book.entries.find((candidate) => candidate.uid === parsed.uid);
  if (!entry) return { problem: `The book "${book.name}" has no entry #${parsed.uid}. Find entries with lore_search.` };
  return { book, entry };
}
