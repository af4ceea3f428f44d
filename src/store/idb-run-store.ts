import type { IDBPDatabase } from 'idb';
import type { AgentInvocation } from '../records/invocation';
import { journalEventSchema, type JournalEvent } from '../records/journal';
import { agentRunSchema, type AgentRun } from '../records/run';
import { agentTaskRecordSchema, type AgentTaskRecord } from '../records/task';
import type { WorkspaceFile } from '../records/workspace-file';
import { HostContractError } from '../errors';
import { FileRecords } from './file-records';
import { InvocationRecords, putOrdered, type WriteTransaction } from './invocation-records';
import { MemoryRecords } from './memory-records';
import type { MemoryVersion } from '../records/memory-version';
import { meteredRunStore } from './metered-run-store';
import { openRunStoreDatabase } from './open-database';
import { storeOperation, validateRecord } from './record-validation';
import type { ListRunsOptions, NewJournalEvent, RunStore } from './run-store';
import { writeRunStep, type RunStep } from './run-step';
import {
  ALL_RUN_STORE_NAMES,
  DEFAULT_RUN_STORE_NAME,
  runKeyRange,
  type Ordered,
  type RunStoreSchema,
} from './schema';

export interface OpenRunStoreOptions {
  /** Database name; tests give each store its own. Defaults to `retinue-runs`. */
  name?: string;
  /** Defaults to the global `indexedDB` (the browser's, or fake-indexeddb's `auto` import in Node). */
  indexedDB?: IDBFactory;
  /** Defaults to the global `IDBKeyRange`; pass fake-indexeddb's with its factory. */
  keyRange?: typeof IDBKeyRange;
  /** Clock for journal events appended without a time. */
  now?: () => number;
}

type Database = IDBPDatabase<RunStoreSchema>;

/** A run's creation time from a key of either runs index (`by-created` or `by-origin-created`). */
function createdAtOfIndexKey(key: number | [string, number]): number {
  return typeof key === 'number' ? key : key[1];
}

/** The conversation a stored run record names, read before the record is checked (anything else: none). */
function conversationIdOf(record: unknown): unknown {
  return (record as { chat?: { conversationId?: unknown } } | null | undefined)?.chat?.conversationId;
}

/** Strips the store-private ordering counter from a record on its way out. */
function withoutOrder<T>(record: Ordered<T>): T {
  const { storeOrder: _storeOrder, ...rest } = record;
  return rest as T;
}

/**
 * Opens the run store in IndexedDB (a service worker, an extension page, or Node with
 * fake-indexeddb). Every record is validated with its zod schema on the way in and out.
 *
 * @example
 * const store = await openRunStore();
 * await store.putRun(run);
 * const recent = await store.listRuns({ origin: 'http://127.0.0.1:8000', limit: 20 });
 */
export async function openRunStore(options: OpenRunStoreOptions = {}): Promise<RunStore> {
  const factory = options.indexedDB ?? globalThis.indexedDB;
  const keyRange = options.keyRange ?? globalThis.IDBKeyRange;
  if (!factory || !keyRange) {
    throw new HostContractError(
      'store-unavailable',
      'IndexedDB is not available here. In Node, import "fake-indexeddb/auto" or pass indexedDB and keyRange.',
    );
  }
  const database = await storeOperation('open its database', () =>
    openRunStoreDatabase(factory, options.name ?? DEFAULT_RUN_STORE_NAME),
  );
  // Every write is counted as it is made: the per-site quota and the history cap read the counts.
  return meteredRunStore(new IdbRunStore(database, keyRange, options.now ?? Date.now));
}

class IdbRunStore implements RunStore {
  private readonly journalListeners = new Set<(event: JournalEvent) => void>();
  private readonly deletionListeners = new Set<(runIds: readonly string[]) => void>();
  private readonly invocations: InvocationRecords;
  private readonly memory: MemoryRecords;
  private readonly files: FileRecords;

  constructor(
    private readonly database: Database,
    private readonly keyRange: typeof IDBKeyRange,
    private readonly now: () => number,
  ) {
    this.invocations = new InvocationRecords(database, keyRange);
    this.memory = new MemoryRecords(database, keyRange);
    this.files = new FileRecords(database, keyRange);
  }

  async putRun(run: AgentRun): Promise<void> {
    const record = validateRecord(agentRunSchema, run, { kind: 'run', direction: 'store' });
    await storeOperation(`save run ${record.id}`, () => this.database.put('runs', record).then(() => undefined));
  }

  async getRun(runId: string): Promise<AgentRun | undefined> {
    const record = await storeOperation(`read run ${runId}`, () => this.database.get('runs', runId));
    return record === undefined ? undefined : this.loadRun(record);
  }

  async listRuns(options: ListRunsOptions = {}): Promise<AgentRun[]> {
    const { origin, before, limit, conversationId } = options;
    if (limit !== undefined && limit <= 0) return [];
    const upperTime = before ?? Infinity;
    const excludeUpper = before !== undefined;
    const records = await storeOperation('list runs', async () => {
      const runs = this.database.transaction('runs').store;
      const index = origin === undefined ? runs.index('by-created') : runs.index('by-origin-created');
      const rangeFrom = (lowerTime: number) =>
        origin === undefined
          ? this.keyRange.bound(lowerTime, upperTime, false, excludeUpper)
          : this.keyRange.bound([origin, lowerTime], [origin, upperTime], false, excludeUpper);
      // In one request, newest first: a cursor's step costs a round trip to the storage process per
      // record, so a limit finds its oldest run's time with one jump of a key cursor instead.
      if (limit === undefined) return (await index.getAll(rangeFrom(-Infinity))).reverse();
      const newest = await index.openKeyCursor(rangeFrom(-Infinity), 'prev');
      if (!newest) return [];
      const oldest = limit === 1 ? newest : await newest.advance(limit - 1);
      const lowerTime = oldest ? createdAtOfIndexKey(oldest.key) : -Infinity;
      // Runs made in the same millisecond as the oldest one kept come along: the cut is by count.
      return (await index.getAll(rangeFrom(lowerTime))).reverse().slice(0, limit);
    });
    const wanted = conversationId === undefined ? records : records.filter((record) => conversationIdOf(record) === conversationId);
    return wanted.map((record) => this.loadRun(record));
  }

  async newestRunIds(origin: string, count: number): Promise<string[]> {
    const range = this.keyRange.bound([origin, -Infinity], [origin, Infinity]);
    return storeOperation(`read the newest runs of ${origin}`, async () => {
      const ids: string[] = [];
      let cursor = count > 0 ? await this.database.transaction('runs').store.index('by-origin-created').openKeyCursor(range, 'prev') : null;
      while (cursor) {
        ids.push(String(cursor.primaryKey));
        cursor = ids.length < count ? await cursor.continue() : null;
      }
      return ids;
    });
  }

  async deleteRun(runId: string): Promise<void> {
    await storeOperation(`delete run ${runId}`, async () => {
      const transaction = this.database.transaction(ALL_RUN_STORE_NAMES, 'readwrite');
      await this.deleteRunIn(transaction, runId);
      await transaction.done;
    });
    this.announceDeleted([runId]);
  }

  async putInvocation(invocation: AgentInvocation, options: { tasks?: readonly AgentTaskRecord[] } = {}): Promise<void> {
    await this.writeStep(`save invocation ${invocation.id}`, { invocations: [invocation], tasks: options.tasks ?? [] });
  }

  async saveStep(step: RunStep): Promise<JournalEvent[]> {
    const [first] = step.invocations ?? [];
    const what = first ? `save a step of run ${first.runId}` : 'save a run step';
    return this.writeStep(what, step);
  }

  async getInvocation(invocationId: string): Promise<AgentInvocation | undefined> {
    return storeOperation(`read invocation ${invocationId}`, () => this.invocations.get(invocationId));
  }

  async listInvocations(runId: string): Promise<AgentInvocation[]> {
    return storeOperation(`list the invocations of run ${runId}`, () => this.invocations.list(runId));
  }

  async putTask(task: AgentTaskRecord): Promise<void> {
    const record = validateRecord(agentTaskRecordSchema, task, { kind: 'task', direction: 'store' });
    await storeOperation(`save task ${record.id}`, async () => {
      const transaction = this.database.transaction('tasks', 'readwrite');
      await putOrdered(transaction.objectStore('tasks'), record, this.keyRange);
      await transaction.done;
    });
  }

  async getTask(taskId: string): Promise<AgentTaskRecord | undefined> {
    const record = await storeOperation(`read task ${taskId}`, () => this.database.get('tasks', taskId));
    return record === undefined ? undefined : this.loadTask(record);
  }

  async listTasks(runId: string): Promise<AgentTaskRecord[]> {
    const records = await storeOperation(`list the tasks of run ${runId}`, () =>
      this.database.getAllFromIndex('tasks', 'by-run', runKeyRange(this.keyRange, runId)),
    );
    return records.map((record) => this.loadTask(record));
  }

  async appendJournal(event: NewJournalEvent): Promise<JournalEvent> {
    const [stored] = await this.writeStep(`append to the journal of run ${event.runId}`, { journal: [event] });
    return stored as JournalEvent;
  }

  async readJournal(runId: string, fromSeq = 1): Promise<JournalEvent[]> {
    const range = this.keyRange.bound([runId, Math.max(1, fromSeq)], [runId, Infinity]);
    const records = await storeOperation(`read the journal of run ${runId}`, () =>
      this.database.getAll('journal', range),
    );
    return records.map((record) => validateRecord(journalEventSchema, record, { kind: 'journal event', direction: 'load' }));
  }

  onJournalAppended(listener: (event: JournalEvent) => void): () => void {
    this.journalListeners.add(listener);
    return () => {
      this.journalListeners.delete(listener);
    };
  }

  onRunsDeleted(listener: (runIds: readonly string[]) => void): () => void {
    this.deletionListeners.add(listener);
    return () => {
      this.deletionListeners.delete(listener);
    };
  }

  async readFile(runId: string, path: string): Promise<WorkspaceFile | undefined> {
    return storeOperation(`read file ${path} of run ${runId}`, () => this.files.get(runId, path));
  }

  async writeFile(file: WorkspaceFile): Promise<void> {
    await storeOperation(`write file ${file.path} of run ${file.runId}`, () => this.files.put(file));
  }

  async deleteFile(runId: string, path: string): Promise<void> {
    await storeOperation(`delete file ${path} of run ${runId}`, () => this.files.delete(runId, path));
  }

  async listFiles(runId: string, prefix = '', except?: { folder: string }): Promise<WorkspaceFile[]> {
    return storeOperation(`list the files of run ${runId}`, () => this.files.list(runId, prefix, except));
  }

  async writeFileChecked(runId: string, except: { folder: string } | undefined, decide: (files: WorkspaceFile[]) => WorkspaceFile): Promise<WorkspaceFile> {
    return storeOperation(`write a file of run ${runId}`, () => this.files.putChecked(runId, except, decide));
  }

  async putMemoryVersion(version: MemoryVersion): Promise<void> {
    await storeOperation(`save the memory of conversation ${version.conversationId}`, () => this.memory.put(version));
  }

  async getMemoryVersion(conversationId: string, lineKey: string): Promise<MemoryVersion | undefined> {
    return storeOperation(`read the memory of conversation ${conversationId}`, () => this.memory.get(conversationId, lineKey));
  }

  async listMemoryLineKeys(conversationId: string): Promise<Set<string>> {
    return storeOperation(`list the memory of conversation ${conversationId}`, () => this.memory.lineKeys(conversationId));
  }

  async listMemoryVersionsOfRun(runId: string): Promise<MemoryVersion[]> {
    return storeOperation(`read the memory run ${runId} made`, () => this.memory.ofRun(runId));
  }

  async pruneRuns(olderThan: number): Promise<number> {
    const pruned = await storeOperation('prune old runs', async () => {
      const transaction = this.database.transaction(ALL_RUN_STORE_NAMES, 'readwrite');
      const candidates = await transaction
        .objectStore('runs')
        .index('by-created')
        .getAll(this.keyRange.upperBound(olderThan, true));
      const prunable = candidates.filter((run) => run.status !== 'running');
      for (const run of prunable) await this.deleteRunIn(transaction, run.id);
      await transaction.done;
      return prunable;
    });
    this.announceDeleted(pruned.map((run) => run.id));
    return pruned.length;
  }

  /** Tells the deletion listeners which runs went; a broken listener does not fail the deletion. */
  private announceDeleted(runIds: readonly string[]): void {
    if (runIds.length === 0) return;
    for (const listener of [...this.deletionListeners]) {
      try {
        listener(runIds);
      } catch (error) {
        console.error('A run deletion listener failed', error);
      }
    }
  }

  /** Writes one step and tells the journal listeners what it appended, once it is stored. */
  private async writeStep(what: string, step: RunStep): Promise<JournalEvent[]> {
    const context = { database: this.database, keyRange: this.keyRange, invocations: this.invocations, now: this.now };
    const stored = await storeOperation(what, () => writeRunStep(context, step));
    for (const event of stored) {
      for (const listener of [...this.journalListeners]) {
        try {
          listener(event);
        } catch (error) {
          // A broken listener (a closed side panel port) must not fail the run that appended.
          console.error('A journal listener failed', error);
        }
      }
    }
    return stored;
  }

  close(): void {
    this.journalListeners.clear();
    this.deletionListeners.clear();
    this.database.close();
  }

  private async deleteRunIn(transaction: WriteTransaction, runId: string): Promise<void> {
    const range = runKeyRange(this.keyRange, runId);
    await transaction.objectStore('runs').delete(runId);
    for (const storeName of ['invocations', 'tasks'] as const) {
      const store = transaction.objectStore(storeName);
      const ids = await store.index('by-run').getAllKeys(range);
      for (const id of ids) await store.delete(id);
    }
    await transaction.objectStore('messages').delete(range);
    await transaction.objectStore('files').delete(range);
    await transaction.objectStore('journal').delete(range);
    // The memory versions this run's reply made go with it (deleting a chat's runs clears its memory).
    const memory = transaction.objectStore('memory');
    for (const key of await memory.index('by-run').getAllKeys(runId)) await memory.delete(key);
  }

  private loadRun(record: unknown): AgentRun {
    return validateRecord(agentRunSchema, record, { kind: 'run', direction: 'load' });
  }

  private loadTask(record: Ordered<AgentTaskRecord>): AgentTaskRecord {
    return validateRecord(agentTaskRecordSchema, withoutOrder(record), { kind: 'task', direction: 'load' });
  }
}
