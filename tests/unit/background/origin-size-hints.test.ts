import { afterEach, beforeEach, expect, test } from 'vitest';
import { browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ORIGIN_SIZE_HINT_KEY_PREFIX, sessionSizeHints } from '../../../src/background/origin-size-hints';
import { createOriginStorageQuota, measureRunBytes } from '../../../src/background/origin-storage-quota';
import { openRunStore } from '../../../src/store/idb-run-store';
import type { RunStore } from '../../../src/store/run-store';
import { buildRun, uniqueDatabaseName } from '../../support/record-builders';

const SITE = 'http://127.0.0.1:8000';
let store: RunStore;
/** The same store, counting how often the quota read the site's run records. */
let counted: RunStore;
let listings = 0;

beforeEach(async () => {
  fakeBrowser.reset();
  store = await openRunStore({ name: uniqueDatabaseName() });
  listings = 0;
  counted = { ...store, listRuns: (options) => ((listings += 1), store.listRuns(options)) };
});
afterEach(() => store.close());

async function endedRun(id: string, createdAt: number, bytes: number) {
  const run = buildRun({ id, origin: SITE, createdAt, status: 'completed' });
  await store.putRun(run);
  await store.writeFile({ runId: id, path: 'input/prompt-snapshot.json', content: 'x'.repeat(bytes), updatedAt: createdAt });
  return (await store.getRun(id))!;
}

/** A quota as a new worker makes it: nothing in memory, the figures in the session area. */
const newWorkerQuota = (quotaBytes: number) => createOriginStorageQuota({ getStore: async () => counted, quotaBytes, sizeHints: sessionSizeHints() });

/** Lets a turn in with a new worker's quota and gives how many times the runs have been read so far. */
async function admittedInANewWorker(quotaBytes = 1_000_000, incomingBytes = 5_000): Promise<number> {
  expect(await newWorkerQuota(quotaBytes).admit(SITE, incomingBytes)).toBe(true);
  return listings;
}

test('a new worker lets a turn in on the kept figure, reading no run, while the site is far from its quota', async () => {
  await endedRun('first', 1, 10_000);
  await endedRun('second', 2, 10_000);
  expect(await admittedInANewWorker()).toBe(1);
  expect(await admittedInANewWorker()).toBe(1);
});

test('a run made since the figure was kept, or its newest run deleted, makes the next turn read the runs again', async () => {
  await endedRun('first', 1, 10_000);
  await endedRun('second', 2, 10_000);
  await newWorkerQuota(1_000_000).admit(SITE, 5_000);

  await endedRun('third', 3, 10_000);
  expect(await admittedInANewWorker()).toBe(2);
  await store.deleteRun('third');
  expect(await admittedInANewWorker()).toBe(3);
  expect(await sessionSizeHints().read(SITE)).toMatchObject({ newestRunId: 'second' });
});

test('an older run deleted since leaves the figure above what the site keeps: the turn is let in on it', async () => {
  await endedRun('first', 1, 10_000);
  await endedRun('second', 2, 10_000);
  await newWorkerQuota(1_000_000).admit(SITE, 5_000);
  const kept = await sessionSizeHints().read(SITE);

  await store.deleteRun('first');
  expect(await admittedInANewWorker()).toBe(1);
  expect((await sessionSizeHints().read(SITE))?.bytes).toBe(kept?.bytes);
});

test('near the quota the runs are read and the oldest pruned, as without a kept figure', async () => {
  await endedRun('oldest', 1, 40_000);
  await endedRun('newest', 2, 40_000);
  await newWorkerQuota(150_000).admit(SITE, 1);
  expect(await admittedInANewWorker(150_000, 60_000)).toBe(2);
  expect((await store.listRuns({ origin: SITE })).map((run) => run.id)).toEqual(['newest']);
});

test("a turn's run, remembered at its end, joins the kept figure: the turn after reads no run", async () => {
  await endedRun('earlier', 1, 10_000);
  const quota = newWorkerQuota(1_000_000);
  await quota.admit(SITE, 5_000);
  const before = await sessionSizeHints().read(SITE);
  const run = await endedRun('this-turn', 2, 5_000);
  await quota.remember(run);

  expect(await sessionSizeHints().read(SITE)).toEqual({ bytes: before!.bytes + (await measureRunBytes(store, (await store.getRun('this-turn'))!)), newestRunId: 'this-turn' });
  expect(await admittedInANewWorker()).toBe(1);
});

test("a turn's run that is not the one run made since the figure drops the figure at its end: the next turn reads", async () => {
  await endedRun('earlier', 10, 10_000);
  const quota = newWorkerQuota(1_000_000);
  await quota.admit(SITE, 5_000);
  // Another tab's turn started after this one: this run is not the newest when it ends.
  const thisTurn = await endedRun('this-turn', 11, 5_000);
  await endedRun('other-tab', 12, 5_000);
  await quota.remember(thisTurn);
  expect(await sessionSizeHints().read(SITE)).toBeUndefined();
  expect(await admittedInANewWorker()).toBe(2);

  // The clock went back: this turn's run is older than the figure's newest, which the next turn's check would not see.
  const pastTurn = await endedRun('past-turn', 1, 5_000);
  await quota.remember(pastTurn);
  expect(await sessionSizeHints().read(SITE)).toBeUndefined();
  expect(await admittedInANewWorker()).toBe(3);
});

test('a figure that does not read as one is no figure', async () => {
  await browser.storage.session.set({ [ORIGIN_SIZE_HINT_KEY_PREFIX + SITE]: { bytes: -1, newestRunId: 7 } });
  expect(await sessionSizeHints().read(SITE)).toBeUndefined();
  await endedRun('first', 1, 10_000);
  expect(await admittedInANewWorker()).toBe(1);
});
