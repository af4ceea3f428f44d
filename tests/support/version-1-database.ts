import type { AgentInvocation } from '../../src/records/invocation';
import type { JournalEvent } from '../../src/records/journal';
import type { AgentRun } from '../../src/records/run';
import type { AgentTaskRecord } from '../../src/records/task';
import type { WorkspaceFile } from '../../src/records/workspace-file';

/** Everything a version-1 run store held, in version 1's shapes (invocations with their whole history). */
export interface Version1Records {
  runs?: readonly AgentRun[];
  invocations?: readonly AgentInvocation[];
  tasks?: readonly AgentTaskRecord[];
  files?: readonly WorkspaceFile[];
  journal?: readonly JournalEvent[];
}

function done(request: IDBRequest | IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    if (request instanceof IDBTransaction) {
      request.oncomplete = () => resolve();
      request.onabort = () => reject(request.error ?? new Error('the version-1 write was aborted'));
      return;
    }
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error ?? new Error('a version-1 request failed'));
  });
}

/**
 * Writes a database exactly as store version 1 laid it out (its object stores, indexes and record
 * shapes, written here with plain IndexedDB rather than through the store's own migrations), so a test
 * can open it with the current store and check what the upgrade made of it.
 */
export async function writeVersion1Database(factory: IDBFactory, name: string, records: Version1Records): Promise<void> {
  const request = factory.open(name, 1);
  request.onupgradeneeded = () => {
    const database = request.result;
    const runs = database.createObjectStore('runs', { keyPath: 'id' });
    runs.createIndex('by-origin-created', ['origin', 'createdAt']);
    runs.createIndex('by-created', 'createdAt');
    database.createObjectStore('invocations', { keyPath: 'id' }).createIndex('by-run', ['runId', 'storeOrder']);
    database.createObjectStore('tasks', { keyPath: 'id' }).createIndex('by-run', ['runId', 'storeOrder']);
    database.createObjectStore('files', { keyPath: ['runId', 'path'] });
    database.createObjectStore('journal', { keyPath: ['runId', 'seq'] });
  };
  await done(request);
  const database = request.result;
  const transaction = database.transaction(['runs', 'invocations', 'tasks', 'files', 'journal'], 'readwrite');
  for (const run of records.runs ?? []) transaction.objectStore('runs').put(run);
  // Version 1 kept a store-private order number on invocations and tasks.
  (records.invocations ?? []).forEach((invocation, index) => transaction.objectStore('invocations').put({ ...invocation, storeOrder: index + 1 }));
  (records.tasks ?? []).forEach((task, index) => transaction.objectStore('tasks').put({ ...task, storeOrder: index + 1 }));
  for (const file of records.files ?? []) transaction.objectStore('files').put(file);
  for (const event of records.journal ?? []) transaction.objectStore('journal').put(event);
  await done(transaction);
  database.close();
}
