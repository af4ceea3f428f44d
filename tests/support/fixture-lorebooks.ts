import lorebooks from '../fixtures/sillytavern/lorebooks.json';
import { loreReadingSchema, type LoreReading } from '../../src/messaging/lore-messages';
import { readLoreInPage } from '../../src/hosts/sillytavern/lore-page-functions';
import type { LoreReader } from '../../src/tools/lore-books';

/**
 * A SillyTavern-shaped window for the lore code: `SillyTavern.getContext()` with the fixture books
 * (tests/fixtures/sillytavern/lorebooks.json) behind `loadWorldInfo`/`saveWorldInfo`, the character's
 * book "Eldoria", the chat's "Mira", the global selection "Bestiary" (as SillyTavern's `#world_info`
 * list shows it), and every `saveWorldInfo` call recorded.
 */
export function createLoreWindow(options: { books?: Record<string, unknown>; global?: string[] } = {}) {
  const books = structuredClone(options.books ?? lorebooks) as Record<string, { entries: Record<string, Record<string, unknown>> }>;
  const saves: { name: string; data: unknown; immediately: boolean | undefined }[] = [];
  const global = options.global ?? ['Bestiary'];
  const context = {
    characterId: 0,
    characters: [{ data: { extensions: { world: 'Eldoria' } } }],
    chatMetadata: { world_info: 'Mira' },
    powerUserSettings: {},
    loadWorldInfo: async (name: string) => (books[name] ? structuredClone(books[name]) : null),
    saveWorldInfo: async (name: string, data: unknown, immediately?: boolean) => {
      saves.push({ name, data: structuredClone(data), immediately });
      books[name] = structuredClone(data) as (typeof books)[string];
    },
    getWorldInfoNames: () => Object.keys(books),
  };
  const window = {
    SillyTavern: { getContext: () => context },
    document: { querySelectorAll: (selector: string) => (selector === '#world_info option:checked' ? global.map((name) => ({ textContent: name })) : []) },
  } as unknown as Window;
  return { window, books, saves, context };
}

/** A lore reader over such a window, through the page script's reading and its schema (as in the browser); `activated` as the page hook keeps it. */
export function createFixtureLoreReader(window: Window, activated: LoreReading['activated'] = [{ book: 'Eldoria', uid: 0 }, { book: 'Mira', uid: 0 }]): LoreReader & { reads: number } {
  const reader = {
    reads: 0,
    async read() {
      reader.reads += 1;
      (window as unknown as Record<symbol, unknown>)[Symbol.for('retinue.lore-activated')] = activated.map(({ book, uid }) => ({ world: book, uid }));
      const reading = await readLoreInPage(window);
      return reading === null ? undefined : loreReadingSchema.parse(reading);
    },
  };
  return reader;
}
