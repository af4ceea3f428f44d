import { afterEach, beforeEach, expect, test } from 'vitest';
import { createOriginStorageQuota, measureRunBytes, utf8Bytes } from '../../../src/background/origin-storage-quota';
import { openRunStore } from '../../../src/store/idb-run-store';
import type { RunStore } from '../../../src/store/run-store';
import { buildRun, uniqueDatabaseName } from '../../support/record-builders';

const SITE = 'http://127.0.0.1:8000';
const OTHER = 'http://localhost:9000';
let store: RunStore;

beforeEach(async () => {
  store = await openRunStore({ name: uniqueDatabaseName() });
});
afterEach(() => store.close());

/** A run of `origin` holding a snapshot file of `bytes` ASCII bytes. */
async function runWithSnapshot(id: string, origin: string, createdAt: number, bytes: number, status: 'completed' | 'running' = 'completed') {
  await store.putRun(buildRun({ id, origin, createdAt, status }));
  await store.writeFile({ runId: id, path: 'input/prompt-snapshot.json', content: 'x'.repeat(bytes), updatedAt: createdAt });
}

const ids = async (origin: string) => (await store.listRuns({ origin })).map((run) => run.id).sort();

test('a byte is counted as UTF-8 stores it', () => {
  expect([utf8Bytes('abc'), utf8Bytes('é'), utf8Bytes('写'), utf8Bytes('🗡')]).toEqual([3, 2, 3, 4]);
});

test('over the quota, the oldest ended runs of that origin go first, and only as many as make room', async () => {
  await runWithSnapshot('oldest', SITE, 1, 40_000);
  await runWithSnapshot('middle', SITE, 2, 40_000);
  await runWithSnapshot('newest', SITE, 3, 40_000);
  await runWithSnapshot('elsewhere', OTHER, 0, 40_000);
  const quota = createOriginStorageQuota({ getStore: async () => store, quotaBytes: 150_000 });

  const admitted = await quota.admit(SITE, 40_000);

  expect(admitted).toBe(true);
  expect(await ids(SITE)).toEqual(['middle', 'newest']);
  expect(await ids(OTHER)).toEqual(['elsewhere']);
});

test('an ended run is measured once and its size kept on its record', async () => {
  await runWithSnapshot('ended', SITE, 1, 10_000);
  const quota = createOriginStorageQuota({ getStore: async () => store, quotaBytes: 1_000_000 });

  await quota.admit(SITE, 1);

  const run = await store.getRun('ended');
  expect(run?.storedBytes).toBe(await measureRunBytes(store, run!));
  expect(run?.storedBytes).toBeGreaterThan(10_000);
});

test('a running run is never pruned: when only running runs fill the quota the turn is refused', async () => {
  await runWithSnapshot('still-working', SITE, 1, 90_000, 'running');
  const quota = createOriginStorageQuota({ getStore: async () => store, quotaBytes: 100_000 });

  expect(await quota.admit(SITE, 20_000)).toBe(false);
  expect(await ids(SITE)).toEqual(['still-working']);
  expect((await store.getRun('still-working'))?.storedBytes).toBeUndefined();
});

test('a snapshot bigger than the whole quota is refused without pruning anything', async () => {
  await runWithSnapshot('kept', SITE, 1, 1_000);
  const quota = createOriginStorageQuota({ getStore: async () => store, quotaBytes: 50_000 });

  expect(await quota.admit(SITE, 60_000)).toBe(false);
  expect(await ids(SITE)).toEqual(['kept']);
});

/** The store, counting the reads that scan a run whole (what a measurement does). */
function countingScans(inner: RunStore): { store: RunStore; scans: () => number } {
  let scans = 0;
  const store = new Proxy(inner, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (property === 'listInvocations') scans += 1;
        return (value as (...parameters: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store, scans: () => scans };
}

test('a running run is seen growing as the store writes it, without measuring it again', async () => {
  await runWithSnapshot('growing', SITE, 1, 10_000, 'running');
  const counted = countingScans(store);
  const quota = createOriginStorageQuota({ getStore: async () => counted.store, quotaBytes: 100_000 });
  expect(await quota.admit(SITE, 20_000)).toBe(true);
  expect(counted.scans()).toBe(1);

  // The run writes 80 KB more while it works: the next turn no longer fits, and nothing was read again.
  for (let note = 0; note < 8; note += 1) {
    await store.writeFile({ runId: 'growing', path: `notes/${note}.md`, content: 'y'.repeat(10_000), updatedAt: 2 });
  }
  expect(await quota.admit(SITE, 20_000)).toBe(false);
  expect(counted.scans()).toBe(1);
  // Rewriting a file counts its new size, not both.
  for (const note of [0, 1]) await store.writeFile({ runId: 'growing', path: `notes/${note}.md`, content: 'short', updatedAt: 3 });
  expect(await quota.admit(SITE, 20_000)).toBe(true);
  expect(counted.scans()).toBe(1);
});

test('a result written to a run after it ended is added to its stored size', async () => {
  await runWithSnapshot('ended', SITE, 1, 10_000);
  const quota = createOriginStorageQuota({ getStore: async () => store, quotaBytes: 1_000_000 });
  await quota.admit(SITE, 1);
  const measured = (await store.getRun('ended'))?.storedBytes ?? 0;

  // A helper that outlived the turn writes its result later.
  await store.writeFile({ runId: 'ended', path: 'summaries/late.md', content: 'z'.repeat(30_000), updatedAt: 5 });
  await quota.admit(SITE, 1);

  const grown = (await store.getRun('ended'))?.storedBytes ?? 0;
  expect(grown - measured).toBeGreaterThanOrEqual(30_000);
  expect(grown - measured).toBeLessThan(30_200);
});

test('a run remembered as it ends is not read again when the next turn is admitted, and counts the same', async () => {
  await runWithSnapshot('just-ended', SITE, 1, 10_000);
  const reads: string[] = [];
  const counting = new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (property !== 'listInvocations' || typeof value !== 'function') return value;
      return (runId: string) => {
        reads.push(runId);
        return (value as (runId: string) => unknown).call(target, runId);
      };
    },
  });
  const quota = createOriginStorageQuota({ getStore: async () => counting, quotaBytes: 1_000_000 });

  await quota.remember((await store.getRun('just-ended'))!);
  expect(reads).toEqual(['just-ended']);
  const admitted = await quota.admit(SITE, 1);

  expect(admitted).toBe(true);
  expect(reads).toEqual(['just-ended']);
  const run = await store.getRun('just-ended');
  expect(run?.storedBytes).toBe(await measureRunBytes(store, { ...run!, storedBytes: undefined }));
});

test('a running run is not remembered: its size is read when a turn asks', async () => {
  await runWithSnapshot('still-working', SITE, 1, 10_000, 'running');
  const quota = createOriginStorageQuota({ getStore: async () => store, quotaBytes: 1_000_000 });

  await quota.remember((await store.getRun('still-working'))!);

  expect((await store.getRun('still-working'))?.storedBytes).toBeUndefined();
});
