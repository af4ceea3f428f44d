import type { AgentInvocation } from '../records/invocation';
import type { AgentRun } from '../records/run';
import type { AgentTaskRecord } from '../records/task';
import type { WorkspaceFile } from '../records/workspace-file';
import { PROMPT_SNAPSHOT_PATH } from '../hosts/prompt-snapshot';
import { snapshotMessagesOf, snapshotReferences } from './history-records';
import type { RunStore, WrittenBytes } from './run-store';

const encoder = new TextEncoder();
/** Space for `encodeInto`, enough for any text of up to 349,525 code units (each at most 3 bytes). */
const space = new Uint8Array(1 << 20);

/**
 * The bytes of `text` in UTF-8, the way a JSON record is counted (a lone surrogate, which JSON
 * never holds, as the 3 bytes of its replacement). Encoded natively: a 200,000-character chat
 * costs a fraction of a JavaScript loop over its characters.
 */
export function utf8Bytes(text: string): number {
  if (text.length * 3 > space.length) return encoder.encode(text).length;
  return encoder.encodeInto(text, space).written;
}

/** UTF-8 bytes of a record as JSON. */
export const jsonBytes = (record: unknown): number => utf8Bytes(JSON.stringify(record) ?? '');

/**
 * UTF-8 bytes of a workspace file: its text as it is kept (a stored string is not JSON text, so its
 * quotes are not escaped), its other fields as JSON. A prompt snapshot is JSON text full of quotes:
 * escaping it again only to count it cost more than the rest of a run's first step.
 */
export const fileBytes = (file: WorkspaceFile): number => jsonBytes({ ...file, content: '' }) + utf8Bytes(file.content);

interface RunMeter {
  /** Records kept under one key (run, invocation state, task, file): their size now, by key. */
  slots: Map<string, { bytes: number; history: boolean }>;
  /** Messages of each invocation's history already counted. */
  messagesCounted: Map<string, number>;
  /** The prompt snapshot's text, which a root's first messages are counted against. */
  snapshot?: string;
  total: number;
  history: number;
}

/**
 * A run store that counts what each write adds, as it writes (no scan of what is stored): a record
 * kept under one key (the run, an invocation's state, a task, a file) counts its size now, replacing
 * what the last write under that key counted; a history message and a journal event are appended and
 * counted once. History bytes are the prompt snapshot file and every invocation's messages, except the
 * page's chat a new root starts with, which the store keeps as references to the snapshot
 * (docs/run-store.md). Counts are of this store object's life: a run that began before it (a worker
 * restart) counts what the runtime read back of it (`countStored`: a resumed run's snapshot and
 * histories) and what it writes here. Reads pass through.
 *
 * @example
 * const store = meteredRunStore(innerStore);
 * await store.putInvocation(invocation);
 * store.writtenBytes(invocation.runId); // { total, history }
 */
export function meteredRunStore(inner: RunStore): RunStore {
  const runs = new Map<string, RunMeter>();

  function meterOf(runId: string): RunMeter {
    let meter = runs.get(runId);
    if (!meter) {
      meter = { slots: new Map(), messagesCounted: new Map(), total: 0, history: 0 };
      runs.set(runId, meter);
    }
    return meter;
  }

  function keep(runId: string, key: string, bytes: number, history = false): void {
    const meter = meterOf(runId);
    const before = meter.slots.get(key);
    meter.total += bytes - (before?.bytes ?? 0);
    if (before?.history) meter.history -= before.bytes;
    if (history) meter.history += bytes;
    meter.slots.set(key, { bytes, history });
  }

  function append(runId: string, bytes: number, history = false): void {
    const meter = meterOf(runId);
    meter.total += bytes;
    if (history) meter.history += bytes;
  }

  function countInvocation(invocation: AgentInvocation, tasks: readonly AgentTaskRecord[]): void {
    const { messages, ...state } = invocation;
    keep(invocation.runId, `invocation:${invocation.id}`, jsonBytes(state));
    const meter = meterOf(invocation.runId);
    const counted = meter.messagesCounted.get(invocation.id) ?? 0;
    // A root's first save keeps the page's chat as references to the snapshot (history-records.ts): not counted twice.
    const snapshot = invocation.kind === 'root' && counted === 0 && meter.snapshot !== undefined ? snapshotMessagesOf({ content: meter.snapshot }) : undefined;
    const references = snapshotReferences(messages, counted, snapshot);
    for (let index = counted; index < messages.length; index += 1) {
      if (references[index - counted] === undefined) append(invocation.runId, jsonBytes(messages[index]), true);
    }
    meter.messagesCounted.set(invocation.id, Math.max(counted, messages.length));
    for (const task of tasks) countTask(task);
  }

  const countRun = (run: AgentRun): void => {
    const { storedBytes: _measured, ...record } = run;
    keep(run.id, 'run', jsonBytes(record));
  };
  const countTask = (task: AgentTaskRecord): void => keep(task.runId, `task:${task.id}`, jsonBytes(task));
  const countFile = (file: WorkspaceFile): void => {
    const isSnapshot = file.path === PROMPT_SNAPSHOT_PATH;
    if (isSnapshot) meterOf(file.runId).snapshot = file.content;
    keep(file.runId, `file:${file.path}`, fileBytes(file), isSnapshot);
  };

  return {
    async putRun(run) {
      await inner.putRun(run);
      countRun(run);
    },
    getRun: (runId) => inner.getRun(runId),
    listRuns: (options) => inner.listRuns(options),
    newestRunIds: (origin, count) => inner.newestRunIds(origin, count),
    async deleteRun(runId) {
      await inner.deleteRun(runId);
      runs.delete(runId);
    },
    async putInvocation(invocation, options) {
      await inner.putInvocation(invocation, options);
      countInvocation(invocation, options?.tasks ?? []);
    },
    getInvocation: (invocationId) => inner.getInvocation(invocationId),
    listInvocations: (runId) => inner.listInvocations(runId),
    async putTask(task) {
      await inner.putTask(task);
      countTask(task);
    },
    getTask: (taskId) => inner.getTask(taskId),
    listTasks: (runId) => inner.listTasks(runId),
    async appendJournal(event) {
      const stored = await inner.appendJournal(event);
      append(stored.runId, jsonBytes(stored));
      return stored;
    },
    async saveStep(step) {
      const stored = await inner.saveStep(step);
      // Counted in the step's order: a root's snapshot file before the messages that refer to it.
      if (step.run) countRun(step.run);
      for (const file of step.files ?? []) countFile(file);
      for (const invocation of step.invocations ?? []) countInvocation(invocation, []);
      for (const task of step.tasks ?? []) countTask(task);
      for (const event of stored) append(event.runId, jsonBytes(event));
      return stored;
    },
    readJournal: (runId, fromSeq) => inner.readJournal(runId, fromSeq),
    // Agent memory belongs to the conversation, not one run's history (the quota prunes it with its runs).
    putMemoryVersion: (version) => inner.putMemoryVersion(version),
    getMemoryVersion: (conversationId, lineKey) => inner.getMemoryVersion(conversationId, lineKey),
    listMemoryLineKeys: (conversationId) => inner.listMemoryLineKeys(conversationId),
    listMemoryVersionsOfRun: (runId) => inner.listMemoryVersionsOfRun(runId),
    onJournalAppended: (listener) => inner.onJournalAppended(listener),
    onRunsDeleted: (listener) => inner.onRunsDeleted(listener),
    readFile: (runId, path) => inner.readFile(runId, path),
    async writeFile(file) {
      await inner.writeFile(file);
      countFile(file);
    },
    async deleteFile(runId, path) {
      await inner.deleteFile(runId, path);
      keep(runId, `file:${path}`, 0);
    },
    listFiles: (runId, prefix, except) => inner.listFiles(runId, prefix, except),
    async writeFileChecked(runId, except, decide) {
      const file = await inner.writeFileChecked(runId, except, decide);
      countFile(file);
      return file;
    },
    pruneRuns: (olderThan) => inner.pruneRuns(olderThan),
    close: () => inner.close(),
    countStored(records) {
      for (const file of records.files ?? []) countFile(file);
      for (const invocation of records.invocations ?? []) countInvocation(invocation, []);
    },
    writtenBytes(runId): WrittenBytes | undefined {
      const meter = runs.get(runId);
      return meter ? { total: meter.total, history: meter.history } : undefined;
    },
  };
}
