import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { resultCapsuleSchema } from '../../../src/records/capsule';
import { agentInvocationSchema } from '../../../src/records/invocation';
import { journalEventSchema } from '../../../src/records/journal';
import { agentRunSchema } from '../../../src/records/run';
import { agentTaskRecordSchema } from '../../../src/records/task';
import { workspaceFileSchema } from '../../../src/records/workspace-file';
import { openRunStore } from '../../../src/store/idb-run-store';
import { openRunStoreDatabase } from '../../../src/store/open-database';
import { uniqueDatabaseName } from '../../support/record-builders';

function fixture(name: string): unknown {
  const url = new URL(`../../fixtures/records/v1/${name}.json`, import.meta.url);
  return JSON.parse(readFileSync(fileURLToPath(url), 'utf8'));
}

test.each([
  ['run', agentRunSchema],
  ['invocation', agentInvocationSchema],
  ['task', agentTaskRecordSchema],
  ['journal-event', journalEventSchema],
  ['workspace-file', workspaceFileSchema],
  ['capsule', resultCapsuleSchema],
] as const)('the version-1 %s fixture still parses through its schema unchanged', (name, schema) => {
  const stored = fixture(name);
  const result = schema.safeParse(stored);
  expect(result.error).toBeUndefined();
  expect(result.data).toEqual(stored);
});

test('version-1 records written straight into a version-1 database load through the store', async () => {
  const name = uniqueDatabaseName();
  const database = await openRunStoreDatabase(indexedDB, name);
  // As store version 1 keeps them: invocations and tasks carry their store-private order number.
  await database.put('runs', fixture('run') as never);
  await database.put('invocations', { ...(fixture('invocation') as object), storeOrder: 1 } as never);
  await database.put('tasks', { ...(fixture('task') as object), storeOrder: 1 } as never);
  await database.put('journal', fixture('journal-event') as never);
  await database.put('files', fixture('workspace-file') as never);
  database.close();

  const store = await openRunStore({ name });
  try {
    expect(await store.getRun('run-fixture')).toEqual(fixture('run'));
    expect(await store.listInvocations('run-fixture')).toEqual([fixture('invocation')]);
    expect(await store.listTasks('run-fixture')).toEqual([fixture('task')]);
    expect(await store.readJournal('run-fixture')).toEqual([fixture('journal-event')]);
    expect(await store.listFiles('run-fixture')).toEqual([fixture('workspace-file')]);
    // The next journal event continues the stored numbering.
    expect((await store.appendJournal({ runId: 'run-fixture', type: 'task-end' })).seq).toBe(2);
  } finally {
    store.close();
  }
});
