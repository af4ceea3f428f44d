import type { IDBPDatabase } from 'idb';
import type { RunStoreSchema } from './schema';

/**
 * Version 3: the `memory` store for agent memory versions, keyed by [conversationId, lineKey] and
 * indexed by the run that made each one. No record changes shape, so nothing is rewritten.
 * A past step: never edit it; a later change of shape gets its own step.
 */
export function createMemoryStore(database: IDBPDatabase<RunStoreSchema>): void {
  const memory = database.createObjectStore('memory', { keyPath: ['conversationId', 'lineKey'] });
  memory.createIndex('by-run', 'runId');
}
