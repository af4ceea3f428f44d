import { afterEach, beforeEach, expect, test } from 'vitest';
import { decideLoreProposal, type LoreDecision } from '../../../src/background/lore-decisions';
import { loreSaveAnswerSchema, type LoreChange } from '../../../src/messaging/lore-messages';
import { saveLoreEntryInPage } from '../../../src/hosts/sillytavern/lore-page-functions';
import { openRunStore } from '../../../src/store/idb-run-store';
import type { RunStore } from '../../../src/store/run-store';
import { createLoreWindow } from '../../support/fixture-lorebooks';
import { buildRun, uniqueDatabaseName } from '../../support/record-builders';

let store: RunStore;
beforeEach(async () => {
  store = await openRunStore({ name: uniqueDatabaseName() });
  await store.putRun(buildRun({ id: 'run-1', adapter: 'sillytavern' }));
});
afterEach(() => store.close());

async function propose(data: Record<string, unknown>): Promise<void> {
  await store.appendJournal({ runId: 'run-1', type: 'lore-proposal', taskId: 'task-1', data: { proposalId: 'p1', workspaceKey: 'lore-keeper', reason: 'Told in #4.', ...data } });
}

function decide(decision: LoreDecision, page = createLoreWindow(), answers = true, siteOn = true) {
  const origins: string[] = [];
  const outcome = decideLoreProposal({
    isSiteOn: async () => siteOn,
    store,
    runId: 'run-1',
    proposalId: 'p1',
    decision,
    now: () => 5_000,
    save: async (origin, change: LoreChange) => {
      origins.push(origin);
      return answers ? loreSaveAnswerSchema.parse(await saveLoreEntryInPage(change, page.window)) : undefined;
    },
  });
  return { outcome, page, origins };
}

const ends = async () => (await store.readJournal('run-1')).filter((event) => event.type === 'lore-proposal-end').map((event) => event.data);

test('Apply writes the entry through the page\'s saveWorldInfo and records which book and entry', async () => {
  await propose({ book: 'Mira', uid: 0, keys: ['Mira', 'courier'], content: 'Mira is a courier; her scar has healed.' });

  const { outcome, page, origins } = decide('apply');

  expect(await outcome).toEqual({ ok: true });
  expect(origins).toEqual(['http://127.0.0.1:8000']);
  expect(page.saves).toHaveLength(1);
  expect(page.saves[0]?.immediately).toBe(true);
  expect(page.books['Mira']?.entries['0']).toMatchObject({ uid: 0, key: ['Mira', 'courier'], content: 'Mira is a courier; her scar has healed.', comment: 'Mira' });
  expect(await ends()).toEqual([{ proposalId: 'p1', state: 'applied', book: 'Mira', uid: 0, created: false }]);
});

test('Apply of a new entry adds it under the next number', async () => {
  await propose({ book: 'Eldoria', keys: ['steward'], content: 'The steward is named Orrin.' });

  const { outcome, page } = decide('apply');

  expect(await outcome).toEqual({ ok: true });
  expect(page.books['Eldoria']?.entries['4']).toMatchObject({ uid: 4, key: ['steward'], content: 'The steward is named Orrin.', disable: false });
  expect(await ends()).toEqual([{ proposalId: 'p1', state: 'applied', book: 'Eldoria', uid: 4, created: true }]);
});

test('Discard writes nothing and is recorded; a decided proposal is not decided again', async () => {
  await propose({ book: 'Mira', uid: 0, keys: ['Mira'], content: 'Changed.' });

  const first = decide('discard');
  expect(await first.outcome).toEqual({ ok: true });
  const again = decide('apply');

  expect(await again.outcome).toMatchObject({ ok: false, code: 'lore-proposal-decided' });
  expect(first.page.saves).toEqual([]);
  expect(again.page.saves).toEqual([]);
  expect(await ends()).toEqual([{ proposalId: 'p1', state: 'discarded' }]);
});

test('an entry gone from the book, or no page to write through, is said plainly and nothing is recorded', async () => {
  await propose({ book: 'Mira', uid: 7, keys: ['Mira'], content: 'Changed.' });

  expect(await decide('apply').outcome).toEqual({
    ok: false,
    code: 'lore-entry-missing',
    message: 'The lorebook “Mira” has no entry #7 any more. Discard this proposal, or add the entry again in SillyTavern.',
  });
  expect(await decide('apply', createLoreWindow(), false).outcome).toMatchObject({ ok: false, code: 'lore-page-missing' });
  expect(await ends()).toEqual([]);
});

test('an unknown proposal is refused', async () => {
  expect(await decide('apply').outcome).toMatchObject({ ok: false, code: 'lore-proposal-missing' });
});

test('Apply on a site switched off writes nothing and says how to go on; Discard still works', async () => {
  await propose({ book: 'Mira', uid: 0, keys: ['Mira'], content: 'Changed.' });

  const applied = decide('apply', createLoreWindow(), true, false);

  expect(await applied.outcome).toEqual({
    ok: false,
    code: 'lore-site-off',
    message: 'Retinue is switched off for http://127.0.0.1:8000, so it writes nothing into its lorebooks. Switch it on for that site and apply again, or discard this proposal.',
  });
  expect(applied.page.saves).toEqual([]);
  expect(applied.origins).toEqual([]);
  expect(await ends()).toEqual([]);
  expect(await decide('discard', createLoreWindow(), true, false).outcome).toEqual({ ok: true });
});
