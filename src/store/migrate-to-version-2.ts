import type { IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import type { RunStoreSchema } from './schema';

type UpgradeTransaction = IDBPTransaction<RunStoreSchema, StoreNames<RunStoreSchema>[], 'versionchange'>;

/** An invocation as store version 1 kept it: its whole history inline. */
interface Version1Invocation {
  id: string;
  runId: string;
  messages?: unknown;
  [field: string]: unknown;
}

/**
 * Version 2: every invocation's inline history moves into `messages` records (one per message, keyed
 * by [runId, invocationId, seq]) and the invocation keeps `messageCount` instead. Messages are moved
 * as they are (no snapshot references), so nothing depends on files a version-1 run may lack.
 * A past step: never edit it; a later change of shape gets its own step.
 */
export async function moveHistoriesIntoMessageRecords(database: IDBPDatabase<RunStoreSchema>, transaction: UpgradeTransaction): Promise<void> {
  database.createObjectStore('messages', { keyPath: ['runId', 'invocationId', 'seq'] });
  const messages = transaction.objectStore('messages');
  for (let cursor = await transaction.objectStore('invocations').openCursor(); cursor; cursor = await cursor.continue()) {
    const stored = cursor.value as unknown as Version1Invocation;
    if (!Array.isArray(stored.messages)) continue;
    const { messages: history, ...state } = stored;
    await Promise.all(
      (history as unknown[]).map((message, seq) => messages.put({ runId: state.runId, invocationId: state.id, seq, message } as never)),
    );
    await cursor.update({ ...state, messageCount: (history as unknown[]).length } as never);
  }
}
