import { expect, test } from 'vitest';
import { createTabLoreReader, saveLoreThroughTabs, type LorePageRunner } from '../../../src/background/page-lore';
import { readLoreInPage, saveLoreEntryInPage } from '../../../src/hosts/sillytavern/lore-page-functions';
import { loreReadingSchema } from '../../../src/messaging/lore-messages';
import { watchLoreActivations } from '../../../src/page-hook/lore-activations';
import { createLoreWindow } from '../../support/fixture-lorebooks';

test('the page reading names each book the chat uses by its source, and the last generation\'s activated entries', async () => {
  const page = createLoreWindow();
  const listeners = new Map<string, ((value: unknown) => void)[]>();
  Object.assign(page.context, { eventSource: { on: (type: string, listener: (value: unknown) => void) => listeners.set(type, [...(listeners.get(type) ?? []), listener]) } });
  const emit = (type: string, value?: unknown) => listeners.get(type)?.forEach((listener) => listener(value));
  watchLoreActivations(page.window);

  emit('generation_started');
  emit('world_info_activated', [{ world: 'Eldoria', uid: 3, content: 'not carried' }, { uid: 1 }, { world: 'Mira', uid: -1 }]);
  const reading = loreReadingSchema.parse(await readLoreInPage(page.window));

  expect(reading.books.map((book) => [book.name, book.sources, book.entries.length])).toEqual([
    ['Eldoria', ['character'], 3],
    ['Mira', ['chat'], 2],
    ['Bestiary', ['global'], 1],
  ]);
  expect(reading.activated).toEqual([{ book: 'Eldoria', uid: 3 }]);
  emit('generation_started');
  expect(loreReadingSchema.parse(await readLoreInPage(page.window)).activated).toEqual([]);
  expect(await readLoreInPage({} as Window)).toBeNull();
});

test('the page reading cuts a long entry and a large book to the caps the schema holds it to', async () => {
  const entries = Object.fromEntries(Array.from({ length: 600 }, (_, uid) => [String(uid), { uid, key: Array.from({ length: 30 }, (_, index) => `k${index}`), comment: 'c', content: 'x'.repeat(uid === 0 ? 9_000 : 10) }]));
  const page = createLoreWindow({ books: { Eldoria: { entries } }, global: [] });

  const reading = loreReadingSchema.parse(await readLoreInPage(page.window));
  const [book] = reading.books;

  expect(book?.entries).toHaveLength(500);
  expect(book?.cut).toBe(true);
  expect(book?.entries[0]?.content).toHaveLength(8_000);
  expect(book?.entries[0]?.keys).toHaveLength(20);
});

test('the background refuses an answer that does not parse, and tries the next tab when one is not SillyTavern', async () => {
  const page = createLoreWindow();
  const pages: LorePageRunner = {
    read: async (tabId) => (tabId === 1 ? { books: [{ name: 'Mira', sources: ['chat'], entries: [], secret: 'x' }], activated: [] } : readLoreInPage(page.window)),
    save: async (tabId, change) => (tabId === 1 ? saveLoreEntryInPage(change, {} as Window) : saveLoreEntryInPage(change, page.window)),
  };
  const signal = new AbortController().signal;

  expect(await createTabLoreReader(1, pages).read(signal)).toBeUndefined();
  expect((await createTabLoreReader(2, pages).read(signal))?.books).toHaveLength(3);
  expect(await saveLoreThroughTabs([1, 2], { book: 'Mira', uid: 0, keys: ['Mira'], content: 'New text.' }, pages)).toEqual({ ok: true, uid: 0, created: false });
  expect(await saveLoreThroughTabs([1], { book: 'Mira', uid: 0, keys: ['Mira'], content: 'New text.' }, pages)).toEqual({ ok: false, refusal: 'lorebooks-unavailable' });
  expect(page.saves.map((save) => save.name)).toEqual(['Mira']);
});
