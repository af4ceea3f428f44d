import { openDB } from 'idb';
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import type { MemoryVersion } from '../../../src/records/memory-version';
import { openRunStore } from '../../../src/store/idb-run-store';
import { moveHistoriesIntoMessageRecords } from '../../../src/store/migrate-to-version-2';
import { RUN_STORE_VERSION } from '../../../src/store/schema';
import { buildInvocation, buildRun, uniqueDatabaseName } from '../../support/record-builders';
import { writeVersion1Database } from '../../support/version-1-database';

const fixture = JSON.parse(readFileSync(new URL('../../fixtures/records/v3/memory-version.json', import.meta.url), 'utf8')) as MemoryVersion;
const runs = [buildRun({ id: 'done', status: 'completed', reply: 'The end.', createdAt: 1_000 }), buildRun({ id: 'other', status: 'completed', createdAt: 2_000 })];
const invocations = [buildInvocation({ id: 'done-root', runId: 'done', status: 'completed', messages: [{ role: 'user', content: 'Hi.' }] })];

/** A database exactly as version 2 left it: version 1's layout, upgraded by version 2's own (past, frozen) step. */
async function writeVersion2Database(name: string): Promise<void> {
  await writeVersion1Database(indexedDB, name, { runs, invocations });
  const database = await openDB(name, 2, {
    upgrade: (upgrading, _old, _new, transaction) => moveHistoriesIntoMessageRecords(upgrading as never, transaction as never),
  });
  database.close();
}

test('a version-2 database opens at version 3 with its runs and histories, and an empty memory store', async () => {
  expect(RUN_STORE_VERSION).toBe(3);
  const name = uniqueDatabaseName();
  await writeVersion2Database(name);
  const store = await openRunStore({ name });
  try {
    expect(await store.listRuns()).toEqual([...runs].reverse());
    expect(await store.getInvocation('done-root')).toEqual(invocations[0]);
    expect(await store.listMemoryLineKeys('chat-1')).toEqual(new Set());
    await store.putMemoryVersion(fixture);
    expect(await store.getMemoryVersion('chat-1', fixture.lineKey)).toEqual(fixture);
  } finally {
    store.close();
  }
  const database = await openDB(name, RUN_STORE_VERSION);
  try {
    expect([...database.objectStoreNames]).toContain('memory');
    expect([...database.transaction('memory').store.indexNames]).toEqual(['by-run']);
  } finally {
    database.close();
  }
});

test('a version-1 database goes through every step to version 3', async () => {
  const name = uniqueDatabaseName();
  await writeVersion1Database(indexedDB, name, { runs, invocations });
  const store = await openRunStore({ name });
  try {
    expect(await store.getInvocation('done-root')).toEqual(invocations[0]);
    await store.putMemoryVersion(fixture);
    expect(await store.listMemoryVersionsOfRun('done')).toEqual([fixture]);
  } finally {
    store.close();
  }
});

test('the version-3 memory fixture loads, and deleting its run deletes it and nothing of another run', async () => {
  const store = await openRunStore({ name: uniqueDatabaseName() });
  try {
    for (const run of runs) await store.putRun(run);
    const kept: MemoryVersion = { ...fixture, lineKey: 'kept-line', runId: 'other' };
    await store.putMemoryVersion(fixture);
    await store.putMemoryVersion(kept);
    expect(await store.listMemoryLineKeys('chat-1')).toEqual(new Set([fixture.lineKey, 'kept-line']));
    await store.deleteRun('done');
    expect(await store.getMemoryVersion('chat-1', fixture.lineKey)).toBeUndefined();
    expect(await store.getMemoryVersion('chat-1', 'kept-line')).toEqual(kept);
  } finally {
    store.close();
  }
});

test('a memory version that breaks its schema is refused before anything is written', async () => {
  const store = await openRunStore({ name: uniqueDatabaseName() });
  try {
    const oversized = { ...fixture, agents: { root: [{ path: 'state.md', content: 'x'.repeat(40_000) }] } };
    await expect(store.putMemoryVersion(oversized)).rejects.toThrow(/memory version/);
    expect(await store.listMemoryLineKeys('chat-1')).toEqual(new Set());
  } finally {
    store.close();
  }
});
