import { expect, test } from 'vitest';
import { answerLoreRequest, createLoreQuery } from '../../../src/bridge/lore-query';
import type { BridgeToPageMessage } from '../../../src/messaging/page-messages';
import { parsePageMessage } from '../../../src/messaging/page-messages';
import { readLore, watchLoreActivations } from '../../../src/page-hook/sillytavern-lore';
import { createLoreWindow } from '../../support/fixture-lorebooks';

const reading = { books: [{ name: 'Mira', sources: ['chat'], entries: [{ uid: 0, keys: ['Mira'], title: 'Mira', content: 'A courier.', disabled: false }] }], activated: [] };

test('the bridge asks the page hook and passes its parsed reading on; a silent page is no-answer', async () => {
  const sent: BridgeToPageMessage[] = [];
  const query = createLoreQuery((message) => sent.push(message), 50);

  const answer = query.ask({ type: 'lore-read-request' });
  const asked = sent[0] as Extract<BridgeToPageMessage, { type: 'lore-read-request' }>;
  const parsed = parsePageMessage(JSON.stringify({ type: 'lore-reading', queryId: asked.queryId, reading }));
  if (parsed?.type !== 'lore-reading') throw new Error('the reading did not parse');
  query.receive(parsed);

  expect(await answer).toEqual({ kind: 'reading', reading });
  expect(await query.ask({ type: 'lore-read-request' })).toEqual({ kind: 'no-answer' });
});

test('a reading over the caps, or with fields of its own, is dropped whole', () => {
  const tooLong = { ...reading, books: [{ ...reading.books[0], entries: [{ ...reading.books[0]?.entries[0], content: 'x'.repeat(8_001) }] }] };
  const extra = { ...reading, books: [{ ...reading.books[0], secret: 'id-123' }] };
  const tooMany = { ...reading, books: Array.from({ length: 21 }, (_, index) => ({ ...reading.books[0], name: `Book ${index}` })) };

  for (const value of [tooLong, extra, tooMany]) {
    expect(parsePageMessage(JSON.stringify({ type: 'lore-reading', queryId: 'lore-1', reading: value }))).toBeUndefined();
  }
});

test('a tab request is answered only while the site is on; other messages are left to other listeners', async () => {
  const query = createLoreQuery(() => undefined, 50);

  expect(await answerLoreRequest({ type: 'lore-read-request' }, { isSiteOn: async () => false, query: () => query })).toEqual({ kind: 'no-answer' });
  expect(answerLoreRequest({ type: 'connection-profiles-request' }, { isSiteOn: async () => true, query: () => query })).toBeUndefined();
  expect(answerLoreRequest({ type: 'lore-save-request', change: { book: 'Mira', keys: [], content: 'x' } }, { isSiteOn: async () => true, query: () => query })).toBeUndefined();
});

test('the page hook reads the chat\'s books by source and follows each generation\'s activated entries', async () => {
  const page = createLoreWindow();
  const listeners = new Map<string, ((...data: unknown[]) => void)[]>();
  Object.assign(page.context, {
    eventSource: { on: (type: string, listener: (...data: unknown[]) => void) => listeners.set(type, [...(listeners.get(type) ?? []), listener]) },
    eventTypes: { GENERATION_STARTED: 'generation_started', WORLD_INFO_ACTIVATED: 'world_info_activated' },
  });
  const emit = (type: string, ...data: unknown[]) => listeners.get(type)?.forEach((listener) => listener(...data));
  const activated = watchLoreActivations(page.window, 0);

  emit('generation_started');
  emit('world_info_activated', [{ world: 'Eldoria', uid: 3, content: 'ignored' }, { uid: 1 }]);
  const first = activated();
  emit('generation_started');

  expect(first).toEqual([{ book: 'Eldoria', uid: 3 }]);
  expect(activated()).toEqual([]);
  const read = await readLore(page.window, first);
  expect(read?.books.map((book) => [book.name, book.sources, book.entries.length])).toEqual([
    ['Eldoria', ['character'], 3],
    ['Mira', ['chat'], 2],
    ['Bestiary', ['global'], 1],
  ]);
  expect(await readLore({} as Window, [])).toBeNull();
});
