import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openDB } from 'idb';
import { expect, test } from 'vitest';
import { historyMessageSchema } from '../../../src/records/history-message';
import { invocationStateSchema } from '../../../src/records/invocation-state';
import { workspaceFileSchema } from '../../../src/records/workspace-file';
import { openRunStore } from '../../../src/store/idb-run-store';
import { uniqueDatabaseName } from '../../support/record-builders';

function fixture(name: string): unknown {
  const url = new URL(`../../fixtures/records/v2/${name}.json`, import.meta.url);
  return JSON.parse(readFileSync(fileURLToPath(url), 'utf8'));
}

test.each([
  ['invocation-state', invocationStateSchema],
  ['prompt-snapshot-file', workspaceFileSchema],
] as const)('the version-2 %s fixture still parses through its schema unchanged', (name, schema) => {
  const stored = fixture(name);
  const result = schema.safeParse(stored);
  expect(result.error).toBeUndefined();
  expect(result.data).toEqual(stored);
});

test('the version-2 history message fixtures still parse through their schema unchanged', () => {
  for (const stored of fixture('history-messages') as unknown[]) expect(historyMessageSchema.parse(stored)).toEqual(stored);
});

test('version-2 records written straight into a version-2 database load through the store, the snapshot reference resolved', async () => {
  const name = uniqueDatabaseName();
  const database = await openDB(name, 2, {
    upgrade(created) {
      created.createObjectStore('runs', { keyPath: 'id' });
      created.createObjectStore('invocations', { keyPath: 'id' }).createIndex('by-run', ['runId', 'storeOrder']);
      created.createObjectStore('messages', { keyPath: ['runId', 'invocationId', 'seq'] });
      created.createObjectStore('tasks', { keyPath: 'id' }).createIndex('by-run', ['runId', 'storeOrder']);
      created.createObjectStore('files', { keyPath: ['runId', 'path'] });
      created.createObjectStore('journal', { keyPath: ['runId', 'seq'] });
    },
  });
  await database.put('invocations', { ...(fixture('invocation-state') as object), storeOrder: 1 });
  for (const record of fixture('history-messages') as object[]) await database.put('messages', record);
  await database.put('files', fixture('prompt-snapshot-file'));
  database.close();

  const store = await openRunStore({ name });
  try {
    const { messageCount: _count, ...state } = fixture('invocation-state') as { messageCount: number };
    const [first, , third] = (fixture('history-messages') as { message?: unknown }[]).map((record) => record.message);
    expect(await store.getInvocation('invocation-root')).toEqual({ ...state, messages: [first, { role: 'user', content: 'The knight enters the hall.' }, third] });
  } finally {
    store.close();
  }
});
