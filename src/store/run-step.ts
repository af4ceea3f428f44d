import type { IDBPDatabase, StoreNames } from 'idb';
import type { AgentInvocation } from '../records/invocation';
import { journalEventSchema, type JournalEvent } from '../records/journal';
import { agentRunSchema, type AgentRun } from '../records/run';
import { agentTaskRecordSchema, type AgentTaskRecord } from '../records/task';
import { workspaceFileSchema, type WorkspaceFile } from '../records/workspace-file';
import { abortQuietly, checkInvocation, putOrdered, type InvocationRecords, type WriteTransaction } from './invocation-records';
import { validateRecord } from './record-validation';
import type { NewJournalEvent } from './run-store';
import { runKeyRange, type RunStoreSchema } from './schema';

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
 * one stored, and steps never collide.
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
  try {
    if (run) await transaction.objectStore('runs').put(run);
    for (const file of files) await transaction.objectStore('files').put(file);
    for (const invocation of invocations) await context.invocations.writeIn(transaction, invocation, files);
    for (const task of tasks) await putOrdered(transaction.objectStore('tasks'), task, context.keyRange);
    const stored = await appendEvents(transaction, context.keyRange, drafts);
    await transaction.done;
    return stored;
  } catch (error) {
    abortQuietly(transaction);
    await transaction.done.catch(() => undefined);
    throw error;
  }
}

/** Numbers each event after the last one its run has, in order. */
async function appendEvents(transaction: WriteTransaction, keyRange: typeof IDBKeyRange, drafts: readonly JournalEvent[]): Promise<JournalEvent[]> {
  if (drafts.length === 0) return [];
  const store = transaction.objectStore('journal');
  const nextSeq = new Map<string, number>();
  const stored: JournalEvent[] = [];
  for (const draft of drafts) {
    let seq = nextSeq.get(draft.runId);
    if (seq === undefined) seq = ((await store.openCursor(runKeyRange(keyRange, draft.runId), 'prev'))?.value.seq ?? 0) + 1;
    const event: JournalEvent = { ...draft, seq };
    await store.add(event);
    nextSeq.set(draft.runId, seq + 1);
    stored.push(event);
  }
  return stored;
}
