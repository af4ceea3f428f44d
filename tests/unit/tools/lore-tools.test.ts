import { expect, test } from 'vitest';
import { loreListActivatedTool } from '../../../src/tools/lore-list-activated';
import { loreProposeTool } from '../../../src/tools/lore-propose';
import { loreReadTool } from '../../../src/tools/lore-read';
import { LORE_SEARCH_LIMITS, loreSearchTool } from '../../../src/tools/lore-search';
import { LORE_UNREADABLE, parseLoreRef, type LoreProposalInput, type LoreReader } from '../../../src/tools/lore-books';
import type { Tool, ToolContext } from '../../../src/tools/tool-definition';
import { createFixtureLoreReader, createLoreWindow } from '../../support/fixture-lorebooks';

function harness(reader: LoreReader = createFixtureLoreReader(createLoreWindow().window)) {
  const proposals: LoreProposalInput[] = [];
  const lookups: { tool: string; labels: readonly string[] }[] = [];
  const context = {
    signal: new AbortController().signal,
    lore: { reader, propose: async (proposal: LoreProposalInput) => void proposals.push(proposal), lookedUp: (tool: string, labels: readonly string[]) => void lookups.push({ tool, labels }) },
  } as unknown as ToolContext;
  const run = async (tool: Tool, args: Record<string, unknown>) => (await tool.execute(tool.parameters.parse(args), context)).content;
  return { run, proposals, lookups };
}

test('list_activated names the turn\'s entries by reference with title, keys and first line, not their whole text', async () => {
  const { run, lookups } = harness();

  const actual = await run(loreListActivatedTool, {});

  expect(actual).toBe(
    [
      '2 entries were activated for this turn:',
      '- Eldoria #0 — The kingdom of Eldoria (keys: Eldoria, kingdom): Eldoria is a river kingdom ruled from the city of Vael.',
      '- Mira #0 — Mira (keys: Mira): Mira is a courier from the northern clans. She has a scar on her left hand.',
    ].join('\n'),
  );
  expect(actual).not.toContain('uneasy peace');
  expect(lookups).toEqual([{ tool: 'lore.list_activated', labels: ['Eldoria #0', 'Mira #0'] }]);
});

test('search finds entries that did not activate in every book the chat uses (character, chat, global), and none elsewhere', async () => {
  const { run } = harness();

  expect(await run(loreSearchTool, { query: 'SILVER KEY' })).toContain('- Eldoria #3 — The silver key (keys: silver key, vault): The silver key opens the royal vault beneath Vael.');
  expect(await run(loreSearchTool, { query: 'firelight' })).toContain('- Bestiary #0 — River drakes');
  expect(await run(loreSearchTool, { query: 'lantern' })).toContain('- Mira #2 — Mira\'s lantern (keys: lantern) [disabled]');
  expect(await run(loreSearchTool, { query: 'moon' })).toBe('No entry in "Eldoria", "Mira", "Bestiary" mentions "moon".');
});

test('search in one book; a book the chat does not use is refused with the books it does', async () => {
  const { run } = harness();

  expect(await run(loreSearchTool, { query: 'Vael', book: 'Mira' })).toBe('No entry in "Mira" mentions "Vael".');
  expect(await run(loreSearchTool, { query: 'moon', book: 'Unused book' })).toBe('This chat uses no book named "Unused book". Its books: "Eldoria", "Mira", "Bestiary".');
});

test('search caps its matches and says how many more there are', async () => {
  const entries = Object.fromEntries(Array.from({ length: 30 }, (_, uid) => [String(uid), { uid, key: [`rune ${uid}`], comment: '', content: 'A rune.' }]));
  const window = createLoreWindow({ books: { Eldoria: { entries } }, global: [] }).window;
  const { run } = harness(createFixtureLoreReader(window, []));

  const actual = await run(loreSearchTool, { query: 'rune' });

  expect(actual.split('\n').filter((line) => line.startsWith('- '))).toHaveLength(LORE_SEARCH_LIMITS.maxMatches);
  expect(actual).toContain('(10 more matches not shown; search for something narrower.)');
});

test('read gives one entry whole, in parts with from and maxChars', async () => {
  const { run } = harness();

  const whole = await run(loreReadTool, { ref: 'Eldoria #3' });
  const part = await run(loreReadTool, { ref: 'Eldoria #3', from: 4, maxChars: 100 });

  expect(whole).toBe(
    '# Eldoria #3 — The silver key\nBook: Eldoria (character)\nKeys: silver key, vault\n\nThe silver key opens the royal vault beneath Vael. Only the queen\'s steward carries it.',
  );
  expect(part).toContain('\n\nsilver key opens the royal vault beneath Vael.');
});

test('a long entry is read in parts, each saying where to read on', async () => {
  const content = 'x'.repeat(250);
  const window = createLoreWindow({ books: { Eldoria: { entries: { '5': { uid: 5, key: ['long'], comment: 'Long', content } } } }, global: [] }).window;
  const { run } = harness(createFixtureLoreReader(window, []));

  expect(await run(loreReadTool, { ref: 'Eldoria #5', maxChars: 100 })).toContain('(Characters 0–100 of 250; read on with from: 100.)');
  expect(await run(loreReadTool, { ref: 'Eldoria #5', from: 200, maxChars: 100 })).toMatch(/\n\nx{50}$/);
  expect(await run(loreReadTool, { ref: 'Eldoria #5', from: 250 })).toBe('Eldoria #5 has 250 characters; there is nothing from character 250.');
});

test('read refuses a malformed reference, an unknown book and a missing entry with the fix', async () => {
  const { run } = harness();

  expect(await run(loreReadTool, { ref: 'Eldoria 3' })).toContain('is not an entry reference');
  expect(await run(loreReadTool, { ref: 'Atlantis #1' })).toBe('This chat uses no book named "Atlantis". Its books: "Eldoria", "Mira", "Bestiary".');
  expect(await run(loreReadTool, { ref: 'Eldoria #9' })).toBe('The book "Eldoria" has no entry #9. Find entries with lore_search.');
});

test('references keep book names that hold " #" and refuse numbers that are not whole', () => {
  expect(parseLoreRef('Notes #2 #14')).toEqual({ book: 'Notes #2', uid: 14 });
  expect(parseLoreRef('Eldoria #1.5')).toBeUndefined();
  expect(parseLoreRef('#3')).toBeUndefined();
});

test('propose records a change with the entry as it was and writes nothing to the page', async () => {
  const fixture = createLoreWindow();
  const { run, proposals } = harness(createFixtureLoreReader(fixture.window));

  const actual = await run(loreProposeTool, { ref: 'Mira #0', book: 'Mira', keys: ['Mira', 'courier'], content: 'Mira is a courier. She lost her scar in chapter 2.', reason: 'Message #12 says the scar healed.' });

  expect(actual).toBe('Proposed a change to Mira #0. Nothing was written: the user reviews it in the side panel and applies or discards it. Mention it in your result.');
  expect(proposals).toEqual([
    {
      book: 'Mira',
      uid: 0,
      keys: ['Mira', 'courier'],
      content: 'Mira is a courier. She lost her scar in chapter 2.',
      reason: 'Message #12 says the scar healed.',
      before: { keys: ['Mira'], content: 'Mira is a courier from the northern clans. She has a scar on her left hand.', title: 'Mira' },
    },
  ]);
  expect(fixture.saves).toEqual([]);
});

test('propose a new entry; refuse a book the chat does not use and a reference into another book', async () => {
  const { run, proposals } = harness();

  expect(await run(loreProposeTool, { book: 'Bestiary', keys: ['marsh hound'], content: 'Marsh hounds hunt in packs.', reason: 'Met in message #30.' })).toContain('Proposed a new entry in "Bestiary".');
  expect(await run(loreProposeTool, { book: 'Unused book', keys: ['x'], content: 'y', reason: 'z' })).toContain('This chat uses no book named "Unused book"');
  expect(await run(loreProposeTool, { ref: 'Eldoria #0', book: 'Mira', keys: ['x'], content: 'y', reason: 'z' })).toBe('Eldoria #0 is in the book "Eldoria", not "Mira": give the book it is in.');
  expect(proposals).toHaveLength(1);
});

test('propose arguments are capped: no keys, too many keys, text over the cap', () => {
  const base = { book: 'Mira', keys: ['a'], content: 'b', reason: 'c' };
  expect(loreProposeTool.parameters.safeParse({ ...base, keys: [] }).success).toBe(false);
  expect(loreProposeTool.parameters.safeParse({ ...base, keys: Array.from({ length: 21 }, (_, index) => `k${index}`) }).success).toBe(false);
  expect(loreProposeTool.parameters.safeParse({ ...base, content: 'x'.repeat(8_001) }).success).toBe(false);
  expect(loreSearchTool.parameters.safeParse({ query: '   ' }).success).toBe(false);
  expect(loreReadTool.parameters.safeParse({ ref: 'Eldoria #3', maxChars: 9_000 }).success).toBe(false);
});

test('every lore tool says so when the page cannot be read, and when it is not offered lorebooks at all', async () => {
  const { run } = harness({ read: async () => undefined });
  const bare = { signal: new AbortController().signal } as unknown as ToolContext;

  for (const [tool, args] of [
    [loreListActivatedTool, {}],
    [loreSearchTool, { query: 'Vael' }],
    [loreReadTool, { ref: 'Eldoria #1' }],
    [loreProposeTool, { book: 'Mira', keys: ['a'], content: 'b', reason: 'c' }],
  ] as const) {
    expect(await run(tool, args)).toBe(LORE_UNREADABLE);
    expect((await tool.execute(tool.parameters.parse(args), bare)).content).toBe(LORE_UNREADABLE);
  }
});
