import type { IDBPDatabase, IDBPObjectStore, IDBPTransaction, StoreNames } from 'idb';
import { PROMPT_SNAPSHOT_PATH } from '../hosts/prompt-snapshot';
import type { HistoryMessage } from '../records/history-message';
import { agentInvocationSchema, type AgentInvocation } from '../records/invocation';
import { invocationStateSchema, type InvocationState } from '../records/invocation-state';
import type { AgentTaskRecord } from '../records/task';
import type { WorkspaceFile } from '../records/workspace-file';
import { assembleHistory, newHistoryRecords, snapshotMessagesOf, stateOf } from './history-records';
import { validateRecord } from './record-validation';
import { runKeyRange, type Ordered, type RunStoreSchema } from './schema';

type Database = IDBPDatabase<RunStoreSchema>;
/** A readwrite transaction whose scope holds at least the stores a write names (idb checks names at run time). */
export type WriteTransaction = IDBPTransaction<RunStoreSchema, StoreNames<RunStoreSchema>[], 'readwrite'>;

/** Checks an invocation's state against its schema before anything of it is written. */
export function checkInvocation(invocation: AgentInvocation): void {
  validateRecord(invocationStateSchema, stateOf(invocation, invocation.messages.length), { kind: 'invocation', direction: 'store' });
}

/**
 * How invocations are kept (store version 2): the `invocations` record holds the state, the history
 * is one `messages` record per message, written once. Saving an invocation appends only the messages
 * the store does not have yet, so a turn writes its history once instead of once per message.
 */
export class InvocationRecords {
  constructor(
    private readonly database: Database,
    private readonly keyRange: typeof IDBKeyRange,
  ) {}

  /**
   * Saves the state and appends the messages past those stored, inside a transaction the caller
   * opened over `invocations`, `messages` and, for a root, `files` (a run step, run-step.ts; check
   * the invocation with `checkInvocation` before opening it). A history is never shortened: a copy
   * holding fewer messages than stored (read before the loop appended more) updates the state only.
   * A root's prompt snapshot is `snapshotInStep` when the same step puts it (it is read from the
   * store otherwise).
   */
  async writeIn(transaction: WriteTransaction, invocation: AgentInvocation, snapshotInStep?: Pick<WorkspaceFile, 'content'>): Promise<void> {
    const existing = await transaction.objectStore('invocations').get(invocation.id);
    const storedCount = existing?.runId === invocation.runId ? existing.messageCount : 0;
    // The root's first save finds the page's chat in the prompt snapshot and refers to it there.
    const snapshot =
      invocation.kind === 'root' && storedCount === 0
        ? (snapshotInStep ?? (await transaction.objectStore('files').get([invocation.runId, PROMPT_SNAPSHOT_PATH])))
        : undefined;
    const records = newHistoryRecords(invocation, storedCount, snapshotMessagesOf(snapshot));
    const state = stateOf(invocation, Math.max(storedCount, invocation.messages.length));
    const messages = transaction.objectStore('messages');
    // The history and the state side by side: neither waits for the other's answer.
    await Promise.all([...records.map((record) => messages.put(record)), putOrdered(transaction.objectStore('invocations'), state, this.keyRange, { existing })]);
  }

  async get(invocationId: string): Promise<AgentInvocation | undefined> {
    const transaction = this.database.transaction(['invocations', 'messages', 'files']);
    const state = await transaction.objectStore('invocations').get(invocationId);
    if (!state) return undefined;
    const range = this.keyRange.bound([state.runId, state.id], [state.runId, state.id, []]);
    const records = await transaction.objectStore('messages').getAll(range);
    return this.assemble(state, records, await this.snapshotIfReferred(transaction, state.runId, records));
  }

  async list(runId: string): Promise<AgentInvocation[]> {
    const transaction = this.database.transaction(['invocations', 'messages', 'files']);
    const range = runKeyRange(this.keyRange, runId);
    const states = await transaction.objectStore('invocations').index('by-run').getAll(range);
    const records = await transaction.objectStore('messages').getAll(range);
    const snapshot = await this.snapshotIfReferred(transaction, runId, records);
    const byInvocation = new Map<string, HistoryMessage[]>();
    for (const record of records) {
      const list = byInvocation.get(record.invocationId) ?? [];
      list.push(record);
      byInvocation.set(record.invocationId, list);
    }
    return states.map((state) => this.assemble(state, byInvocation.get(state.id) ?? [], snapshot));
  }

  private async snapshotIfReferred(
    transaction: IDBPTransaction<RunStoreSchema, ('invocations' | 'messages' | 'files')[], 'readonly'>,
    runId: string,
    records: readonly HistoryMessage[],
  ): Promise<readonly unknown[] | undefined> {
    if (!records.some((record) => record.snapshotIndex !== undefined)) return undefined;
    return snapshotMessagesOf(await transaction.objectStore('files').get([runId, PROMPT_SNAPSHOT_PATH]));
  }

  private assemble(stored: Ordered<InvocationState>, records: readonly HistoryMessage[], snapshot: readonly unknown[] | undefined): AgentInvocation {
    const { storeOrder: _storeOrder, ...withCount } = stored;
    const valid = validateRecord(invocationStateSchema, withCount, { kind: 'invocation', direction: 'load' });
    const { messageCount: _messageCount, ...state } = valid;
    const messages = assembleHistory(valid, records, () => snapshot);
    return validateRecord(agentInvocationSchema, { ...state, messages }, { kind: 'invocation', direction: 'load' });
  }
}

/** Puts an invocation state or task, keeping the order number it got when the store first saw it. */
export async function putOrdered<Name extends 'invocations' | 'tasks', Stores extends ArrayLike<StoreNames<RunStoreSchema>>>(
  store: IDBPObjectStore<RunStoreSchema, Stores, Name, 'readwrite'>,
  record: InvocationState | AgentTaskRecord,
  keyRange: typeof IDBKeyRange,
  known?: { existing: { runId: string; storeOrder: number } | undefined },
): Promise<void> {
  const existing = known ? known.existing : await store.get(record.id);
  let storeOrder = existing?.storeOrder;
  if (storeOrder === undefined || existing?.runId !== record.runId) {
    const last = await store.index('by-run').openCursor(runKeyRange(keyRange, record.runId), 'prev');
    storeOrder = (last?.value.storeOrder ?? 0) + 1;
  }
  await store.put({ ...record, storeOrder } as never);
}

function abortQuietly(transaction: { abort(): void }): void {
  try {
    transaction.abort();
  } catch {
    // Already finished or aborted: nothing was left to undo.
  }
}

/**
 * Runs `work` in a readwrite transaction and waits for the transaction to commit; on any failure
 * the transaction is aborted, so nothing of it stays, and the failure is thrown.
 */
export async function committed<T>(transaction: { abort(): void; done: Promise<void> }, work: () => Promise<T>): Promise<T> {
  try {
    const result = await work();
    await transaction.done;
    return result;
  } catch (error) {
    abortQuietly(transaction);
    await transaction.done.catch(() => undefined);
    throw error;
  }
}
