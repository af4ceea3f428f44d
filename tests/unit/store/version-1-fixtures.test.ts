import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { resultCapsuleSchema } from '../../../src/records/capsule';
import { agentInvocationSchema, type AgentInvocation } from '../../../src/records/invocation';
import { journalEventSchema, type JournalEvent } from '../../../src/records/journal';
import { agentRunSchema, type AgentRun } from '../../../src/records/run';
import { agentTaskRecordSchema, type AgentTaskRecord } from '../../../src/records/task';
import { workspaceFileSchema, type WorkspaceFile } from '../../../src/records/workspace-file';
import { openRunStore } from '../../../src/store/idb-run-store';
import { uniqueDatabaseName } from '../../support/record-builders';
import { writeVersion1Database } from '../../support/version-1-database';

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
  await writeVersion1Database(indexedDB, name, {
    runs: [fixture('run') as AgentRun],
    invocations: [fixture('invocation') as AgentInvocation],
    tasks: [fixture('task') as AgentTaskRecord],
    journal: [fixture('journal-event') as JournalEvent],
    files: [fixture('workspace-file') as WorkspaceFile],
  });

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
