/**
 * SillyTavern's lorebooks (World Info) as the page hook reads and writes them, through
 * `SillyTavern.getContext()`: `loadWorldInfo(name)`, `saveWorldInfo(name, data, immediately)`,
 * `getWorldInfoNames()`, and the `world_info_activated` event (the entries one generation activated,
 * each with its `world` and `uid`). The books a chat uses: the character's (`data.extensions.world`),
 * the chat's (`chatMetadata.world_info`), the persona's (`powerUserSettings.persona_description_lorebook`)
 * and the global selection (the `#world_info` list; `getContext()` does not expose it).
 * MAIN-world code: plain checks, no zod; the bridge validates and caps what is sent.
 * Checked against SillyTavern 1.18.0 (public/scripts/st-context.js, public/scripts/world-info.js).
 */

type Source = 'character' | 'chat' | 'persona' | 'global';
export interface LoreEntryFields {
  uid: number;
  keys: string[];
  title: string;
  content: string;
  disabled: boolean;
}
export interface LoreBookFields {
  name: string;
  sources: Source[];
  entries: LoreEntryFields[];
  cut?: boolean;
}
export interface LoreReadingFields {
  books: LoreBookFields[];
  activated: { book: string; uid: number }[];
}
export type LoreChange = { book: string; uid?: number; keys: string[]; content: string; title?: string };
export type LoreSaveAnswer = { ok: true; uid: number; created: boolean } | { ok: false; refusal: 'lorebooks-unavailable' | 'book-missing' | 'entry-missing' | 'save-failed' };

/** The same numbers as LORE_LIMITS in src/messaging/lore-messages.ts (no zod import here). */
const MAX_BOOKS = 20;
const MAX_ENTRIES = 500;
const MAX_CONTENT = 8_000;
const MAX_TOTAL = 1_000_000;

interface LoreContext {
  characters?: { data?: { extensions?: { world?: unknown } } }[];
  characterId?: unknown;
  chatMetadata?: Record<string, unknown>;
  powerUserSettings?: { persona_description_lorebook?: unknown };
  loadWorldInfo?: (name: string) => Promise<{ entries?: Record<string, Record<string, unknown>> } | null | undefined>;
  saveWorldInfo?: (name: string, data: unknown, immediately?: boolean) => Promise<unknown>;
  getWorldInfoNames?: () => string[];
  eventSource?: { on(type: string, listener: (...data: unknown[]) => void): void };
  eventTypes?: Record<string, string>;
}

function contextOf(target: object): LoreContext | undefined {
  try {
    const context = (target as { SillyTavern?: { getContext?: () => LoreContext } }).SillyTavern?.getContext?.();
    return typeof context?.loadWorldInfo === 'function' ? context : undefined;
  } catch {
    return undefined;
  }
}

const text = (value: unknown, max: number): string => (typeof value === 'string' ? value.slice(0, max) : '');

/** The chat's books, each with the sources that bring it in. */
function booksInUse(target: Window, context: LoreContext): Map<string, Source[]> {
  const books = new Map<string, Source[]>();
  const add = (name: unknown, source: Source) => {
    if (typeof name !== 'string' || name === '') return;
    books.set(name, [...(books.get(name) ?? []), source]);
  };
  const id = context.characterId;
  if (typeof id === 'number' || typeof id === 'string') add(context.characters?.[Number(id)]?.data?.extensions?.world, 'character');
  add(context.chatMetadata?.world_info, 'chat');
  add(context.powerUserSettings?.persona_description_lorebook, 'persona');
  target.document?.querySelectorAll?.('#world_info option:checked').forEach((option) => add(option.textContent?.trim(), 'global'));
  return books;
}

/** Reads every book the chat uses (capped), and the entries the last generation activated. */
export async function readLore(target: Window, activated: { book: string; uid: number }[]): Promise<LoreReadingFields | null> {
  const context = contextOf(target);
  if (!context) return null;
  const books: LoreBookFields[] = [];
  let total = 0;
  for (const [name, sources] of [...booksInUse(target, context)].slice(0, MAX_BOOKS)) {
    const data = await context.loadWorldInfo!(name).catch(() => undefined);
    const book: LoreBookFields = { name: name.slice(0, 200), sources, entries: [] };
    for (const entry of Object.values(data?.entries ?? {}).slice(0, MAX_ENTRIES)) {
      const content = text(entry.content, MAX_CONTENT);
      if (typeof entry.uid !== 'number' || (total += content.length) > MAX_TOTAL) {
        book.cut = true;
        break;
      }
      const keys = Array.isArray(entry.key) ? entry.key.filter((key) => typeof key === 'string').slice(0, 20).map((key) => key.slice(0, 200)) : [];
      book.entries.push({ uid: entry.uid, keys, title: text(entry.comment, 200), content, disabled: entry.disable === true });
    }
    books.push(book);
  }
  return { books, activated };
}

/**
 * Follows the page's generations: each one starts with no activated entries (`generation_started`),
 * and `world_info_activated` gives those it activated. SillyTavern's context comes after the page
 * hook's `document_start`, so the hook tries again every 250 ms for two minutes.
 */
export function watchLoreActivations(target: Window, tries = 480): () => { book: string; uid: number }[] {
  let activated: { book: string; uid: number }[] = [];
  const subscribe = (left: number) => {
    const context = contextOf(target);
    const on = context?.eventSource?.on;
    if (!context || typeof on !== 'function') {
      if (left > 0) setTimeout(() => subscribe(left - 1), 250);
      return;
    }
    const types = context.eventTypes ?? {};
    on.call(context.eventSource, types.GENERATION_STARTED ?? 'generation_started', () => (activated = []));
    on.call(context.eventSource, types.WORLD_INFO_ACTIVATED ?? 'world_info_activated', (entries: unknown) => {
      activated = (Array.isArray(entries) ? (entries as { world?: unknown; uid?: unknown }[]) : [])
        .filter((entry) => typeof entry?.world === 'string' && typeof entry.uid === 'number')
        .slice(0, 200)
        .map((entry) => ({ book: (entry.world as string).slice(0, 200), uid: entry.uid as number }));
    });
  };
  subscribe(tries);
  return () => activated;
}

/** Writes one entry (an edit of `uid`, or a new one) through the page's `saveWorldInfo`. */
export async function saveLoreEntry(target: Window, change: LoreChange): Promise<LoreSaveAnswer> {
  const context = contextOf(target);
  if (!context || typeof context.saveWorldInfo !== 'function') return { ok: false, refusal: 'lorebooks-unavailable' };
  const data = await context.loadWorldInfo!(change.book).catch(() => undefined);
  if (!data?.entries) return { ok: false, refusal: 'book-missing' };
  const entries = data.entries;
  let uid = change.uid;
  const created = uid === undefined;
  if (uid === undefined) {
    uid = Math.max(-1, ...Object.values(entries).map((entry) => (typeof entry.uid === 'number' ? entry.uid : -1))) + 1;
    // The fields of a new entry in SillyTavern's World Info file format; the editor fills in the rest.
    entries[uid] = { uid, keysecondary: [], comment: change.title ?? change.keys[0] ?? '', constant: false, selective: true, disable: false, order: 100, position: 0, depth: 4, probability: 100, useProbability: true, addMemo: true, displayIndex: uid };
  }
  const entry = entries[uid];
  if (!entry) return { ok: false, refusal: 'entry-missing' };
  entry.key = change.keys;
  entry.content = change.content;
  try {
    await context.saveWorldInfo(change.book, data, true);
  } catch {
    return { ok: false, refusal: 'save-failed' };
  }
  return { ok: true, uid, created };
}
