import type { DBSchema } from 'idb';
import type { HistoryMessage } from '../records/history-message';
import type { InvocationState } from '../records/invocation-state';
import type { JournalEvent } from '../records/journal';
import type { MemoryVersion } from '../records/memory-version';
import type { AgentRun } from '../records/run';
import type { AgentTaskRecord } from '../records/task';
import type { WorkspaceFile } from '../records/workspace-file';

/**
 * The IndexedDB schema of the run store.
 *
 * Version history (add a line and a step in migrations.ts for every change; never edit a past step):
 * - 1 (2026-11): object stores `runs`, `invocations`, `tasks`, `files`, `journal`.
 *   `runs` by id, indexed by [origin, createdAt] and createdAt; `invocations` and `tasks` by id, each
 *   indexed by [runId, storeOrder] (the order the store first saw them); `files` keyed by [runId, path];
 *   `journal` keyed by [runId, seq].
 *   Later optional fields need no step (older records simply lack them): `runs[].fallback` (2026-11-30).
 * - 2 (2026-11-30): histories append-only. `invocations` keep state only (`messageCount` instead of
 *   `messages`); each message is its own record in the new `messages` store, keyed by
 *   [runId, invocationId, seq]; a root message equal to one of the run's prompt snapshot
 *   (`input/prompt-snapshot.json`) is stored as a reference to it. The step moves every stored history.
 * - 3 (2026-12-02): agent memory. The new `memory` store holds one record per conversation and reply
 *   (`records/memory-version.ts`), keyed by [conversationId, lineKey] and indexed by runId (the run
 *   whose reply made it, so deleting a run deletes its versions). The step only creates the store.
 */
export const RUN_STORE_VERSION = 3;

/** The database name used unless a test asks for its own. */
export const DEFAULT_RUN_STORE_NAME = 'retinue-runs';

/**
 * Invocations and tasks carry a store-private counter so "in creation order" holds even when two
 * records share a `createdAt` millisecond. It is stripped before a record leaves the store.
 */
export type Ordered<T> = T & { storeOrder: number };

export interface RunStoreSchema extends DBSchema {
  runs: {
    key: string;
    value: AgentRun;
    indexes: { 'by-origin-created': [string, number]; 'by-created': number };
  };
  invocations: {
    key: string;
    value: Ordered<InvocationState>;
    indexes: { 'by-run': [string, number] };
  };
  messages: {
    key: [string, string, number];
    value: HistoryMessage;
  };
  tasks: {
    key: string;
    value: Ordered<AgentTaskRecord>;
    indexes: { 'by-run': [string, number] };
  };
  files: {
    key: [string, string];
    value: WorkspaceFile;
  };
  journal: {
    key: [string, number];
    value: JournalEvent;
  };
  memory: {
    key: [string, string];
    value: MemoryVersion;
    indexes: { 'by-run': string };
  };
}

export type RunStoreName = 'runs' | 'invocations' | 'messages' | 'tasks' | 'files' | 'journal' | 'memory';
export const ALL_RUN_STORE_NAMES: RunStoreName[] = ['runs', 'invocations', 'messages', 'tasks', 'files', 'journal', 'memory'];

/**
 * A key range over every key `[runId, anything]` of a compound key or index: arrays sort after
 * numbers and strings, so `[runId, []]` is above every `[runId, number | string]`.
 */
export function runKeyRange(keyRange: typeof IDBKeyRange, runId: string): IDBKeyRange {
  return keyRange.bound([runId], [runId, []]);
}
