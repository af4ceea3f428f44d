import type { IDBPDatabase, StoreNames } from 'idb';
import type { AgentInvocation } from '../records/invocation';
import { journalEventSchema, type JournalEvent } from '../records/journal';
import { agentRunSchema, type AgentRun } from '../records/run';
import { agentTaskRecordSchema, type AgentTaskRecord } from '../records/task';
import { workspaceFileSchema, type WorkspaceFile } from '../records/workspace-file';
import { checkInvocation, committed, putOrdered, type InvocationRecords, type WriteTransaction } from './invocation-records';
import { validateRecord } from './record-validation';
import type { NewJournalEvent } from './run-store';
import { runKeyRange, type RunStoreSchema } from './schema';
import { PROMPT_SNAPSHOT_PATH } from '../hosts/prompt-snapshot';

/**
 * One step of a run: every record it changed, written in one IndexedDB transaction, so they are
 * stored together or not at all. The order inside is the order below: a root's prompt snapshot
 * (a file) is there before the root's first messages refer to it.
 */
export interface RunStep {
  run?: AgentRun;
  files?: readonly WorkspaceFile[];
  /** Each saved as `putInvocation` saves one: its state, and the messages the store does not hold yet. */
  invocations?: readonly AgentInvocation[];
  tasks?: readonly AgentTaskRecord[];
  /** Appended after the run's last event, numbered in this order. */
  journal?: readonly NewJournalEvent[];
}

type Database = IDBPDatabase<RunStoreSchema>;

/** The object stores a step writes to. */
function storesOf(step: RunStep): StoreNames<RunStoreSchema>[] {
  const names = new Set<StoreNames<RunStoreSchema>>();
  if (step.run) names.add('runs');
  if ((step.files?.length ?? 0) > 0) names.add('files');
  for (const invocation of step.invocations ?? []) {
    names.add('invocations').add('messages');
    if (invocation.kind === 'root') names.add('files');
  }
  if ((step.tasks?.length ?? 0) > 0) names.add('tasks');
  if ((step.journal?.length ?? 0) > 0) names.add('journal');
  return [...names];
}

/**
 * Writes a run step in one readwrite transaction and gives back the journal events as stored.
 * Everything is validated before the transaction opens; a record refused inside it (a history
 * message) aborts the whole step. IndexedDB runs readwrite transactions over the same stores one
 * after another, in the order they were opened, so each step numbers its events after the last
 * one stored, and steps never collide. Inside the step, requests that do not wait for each
 * other's answers are issued together (each answer is a round trip to the browser's storage
 * process): the run, the files, the invocations, the tasks and the events go side by side;
 * invocations among themselves and tasks among themselves stay in turn, since each new one takes
 * its order number after the one before.
 */
export async function writeRunStep(
  context: { database: Database; keyRange: typeof IDBKeyRange; invocations: InvocationRecords; now: () => number },
  step: RunStep,
): Promise<JournalEvent[]> {
  const run = step.run ? validateRecord(agentRunSchema, step.run, { kind: 'run', direction: 'store' }) : undefined;
  const files = (step.files ?? []).map((file) => validateRecord(workspaceFileSchema, file, { kind: 'workspace file', direction: 'store' }));
  const invocations = step.invocations ?? [];
  for (const invocation of invocations) checkInvocation(invocation);
  const tasks = (step.tasks ?? []).map((task) => validateRecord(agentTaskRecordSchema, task, { kind: 'task', direction: 'store' }));
  // Each event as it will be stored (seq 1 stands in for the number it gets in the transaction).
  const drafts = (step.journal ?? []).map((event) =>
    validateRecord(journalEventSchema, { ...event, seq: 1, time: event.time ?? context.now() }, { kind: 'journal event', direction: 'store' }),
  );
  const names = storesOf(step);
  if (names.length === 0) return [];
  const transaction: WriteTransaction = context.database.transaction(names, 'readwrite');
  return committed(transaction, async () => {
    // A root's first save refers to the prompt snapshot this same step puts (a run's first step).
    const snapshot = files.find((file) => file.path === PROMPT_SNAPSHOT_PATH);
    const [stored] = await Promise.all([
      appendEvents(transaction, context.keyRange, drafts),
      run ? transaction.objectStore('runs').put(run) : undefined,
      ...files.map((file) => transaction.objectStore('files').put(file)),
      inTurn(invocations, (invocation) => context.invocations.writeIn(transaction, invocation, snapshot?.runId === invocation.runId ? snapshot : undefined)),
      inTurn(tasks, (task) => putOrdered(transaction.objectStore('tasks'), task, context.keyRange)),
    ]);
    return stored;
  });
}

/** Writes the items one after another (each waits for the one before to be answered). */
async function inTurn<T>(items: readonly T[], write: (item: T) => Promise<unknown>): Promise<void> {
  for (const item of items) await write(item);
}

/**
 * Numbers each event after the last one its run has, in order. The numbers are known once each run's
 * last event is read, so the adds are issued together: one round trip for all of them.
 */
async function appendEvents(transaction: WriteTransaction, keyRange: typeof IDBKeyRange, drafts: readonly JournalEvent[]): Promise<JournalEvent[]> {
  if (drafts.length === 0) return [];
  const store = transaction.objectStore('journal');
  const runIds = [...new Set(drafts.map((draft) => draft.runId))];
  const lastSeqs = await Promise.all(runIds.map(async (runId) => (await store.openCursor(runKeyRange(keyRange, runId), 'prev'))?.value.seq ?? 0));
  const nextSeq = new Map(runIds.map((runId, index) => [runId, (lastSeqs[index] ?? 0) + 1]));
  const stored = drafts.map((draft): JournalEvent => {
    const seq = nextSeq.get(draft.runId) ?? 1;
    nextSeq.set(draft.runId, seq + 1);
    return { ...draft, seq };
  });
  await Promise.all(stored.map((event) => store.add(event)));
  return stored;
}
