import type { IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import { moveHistoriesIntoMessageRecords } from './migrate-to-version-2';
import { createMemoryStore } from './migrate-to-version-3';
import type { RunStoreSchema } from './schema';

type UpgradeTransaction = IDBPTransaction<RunStoreSchema, StoreNames<RunStoreSchema>[], 'versionchange'>;

/** Version 1: the first layout (see the history in schema.ts). */
function createVersion1(database: IDBPDatabase<RunStoreSchema>): void {
  const runs = database.createObjectStore('runs', { keyPath: 'id' });
  runs.createIndex('by-origin-created', ['origin', 'createdAt']);
  runs.createIndex('by-created', 'createdAt');

  const invocations = database.createObjectStore('invocations', { keyPath: 'id' });
  invocations.createIndex('by-run', ['runId', 'storeOrder']);

  const tasks = database.createObjectStore('tasks', { keyPath: 'id' });
  tasks.createIndex('by-run', ['runId', 'storeOrder']);

  database.createObjectStore('files', { keyPath: ['runId', 'path'] });
  database.createObjectStore('journal', { keyPath: ['runId', 'seq'] });
}

/**
 * Brings a database from `oldVersion` up to the current version, one step at a time, inside the
 * upgrade transaction. Each step runs once in a database's life; later steps use `transaction` to
 * rewrite records. A step that fails rejects, and the caller aborts the upgrade (nothing changes).
 */
export async function migrateRunStore(
  database: IDBPDatabase<RunStoreSchema>,
  oldVersion: number,
  transaction: UpgradeTransaction,
): Promise<void> {
  if (oldVersion < 1) createVersion1(database);
  if (oldVersion < 2) await moveHistoriesIntoMessageRecords(database, transaction);
  if (oldVersion < 3) createMemoryStore(database);
}
