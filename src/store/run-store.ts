import type { AgentInvocation } from '../records/invocation';
import type { MemoryVersion } from '../records/memory-version';
import type { JournalEvent, JournalEventDataInput, JournalEventOfType, JournalEventType } from '../records/journal';
import type { AgentRun } from '../records/run';
import type { AgentTaskRecord } from '../records/task';
import type { WorkspaceFile } from '../records/workspace-file';
import type { RunStep } from './run-step';

export type { RunStep } from './run-step';

export interface ListRunsOptions {
  /** Only runs of this origin. */
  origin?: string;
  /** Only runs created before this time (for paging). */
  before?: number;
  /** How many runs are looked at, newest first (with a `conversationId`, fewer may come back). */
  limit?: number;
  /**
   * Only the runs of this conversation among those looked at: the others are not read into records
   * (each would be checked against its schema, about 40 µs a run on every turn).
   */
  conversationId?: string;
}

/** An event to append: the store numbers it, and checks it against its type's schema as it is written. */
export type NewJournalEvent = {
  [T in JournalEventType]: Omit<JournalEventOfType<T>, 'seq' | 'time' | 'data'> & { time?: number; data?: JournalEventDataInput<T> };
}[JournalEventType];

/** What a store wrote for one run while it was open (`meteredRunStore`): all records, and its history's part. */
export interface WrittenBytes {
  /** UTF-8 bytes of every record of the run as it now stands, as far as this store object wrote them. */
  total: number;
  /** The part that is history: the prompt snapshot and the invocations' messages. */
  history: number;
}

/**
 * The run store: every record of every run, in IndexedDB (`runs`, `invocations`, `messages`, `tasks`,
 * `files`, `journal`, `memory`; docs/run-store.md). Records are validated with their zod schema on the way in; a
 * write that fails rejects with a HostContractError.
 */
export interface RunStore {
  putRun(run: AgentRun): Promise<void>;
  getRun(runId: string): Promise<AgentRun | undefined>;
  /** Newest first. */
  listRuns(options?: ListRunsOptions): Promise<AgentRun[]>;
  /**
   * The ids of one origin's `count` newest runs, newest first, without reading them: one key-cursor
   * step each, where a count of the origin's runs walks every one (6 ms for 600 in Chromium).
   */
  newestRunIds(origin: string, count: number): Promise<string[]>;
  /** Deletes the run and everything that belongs to it. */
  deleteRun(runId: string): Promise<void>;

  /**
   * Saves an invocation's state and appends the messages of its history the store does not hold yet
   * (a history is never rewritten nor shortened); `tasks` given with it are saved in the same
   * transaction, so a tool result and what it handed over (a result delivered, a finish announced) are
   * stored together or not at all. Reads give the whole history back.
   */
  putInvocation(invocation: AgentInvocation, options?: { tasks?: readonly AgentTaskRecord[] }): Promise<void>;
  /**
   * Writes one step of a run in one transaction (run-step.ts): the run record, files, invocations
   * (as `putInvocation` saves each), tasks and journal events together or not at all. Gives back the
   * events as stored; listeners hear them once the step is stored.
   */
  saveStep(step: RunStep): Promise<JournalEvent[]>;
  getInvocation(invocationId: string): Promise<AgentInvocation | undefined>;
  listInvocations(runId: string): Promise<AgentInvocation[]>;

  putTask(task: AgentTaskRecord): Promise<void>;
  getTask(taskId: string): Promise<AgentTaskRecord | undefined>;
  /** In creation order. */
  listTasks(runId: string): Promise<AgentTaskRecord[]>;

  /** Appends with the next per-run sequence number (1, 2, 3, ...) and returns the stored event. */
  appendJournal(event: NewJournalEvent): Promise<JournalEvent>;
  /** Events with `seq >= fromSeq`, in order. */
  readJournal(runId: string, fromSeq?: number): Promise<JournalEvent[]>;
  /**
   * Calls `listener` with every event appended through this store object, after it is stored
   * (how the side panel gets live progress without polling). Returns the unsubscribe function.
   */
  onJournalAppended(listener: (event: JournalEvent) => void): () => void;
  /**
   * Calls `listener` with the ids of the runs deleted through this store object (`deleteRun`, `pruneRuns`), after
   * the deletion is stored: how an open side panel drops them from its history. Returns the unsubscribe function.
   */
  onRunsDeleted(listener: (runIds: readonly string[]) => void): () => void;

  /** Physical workspace files; use a workspace view (src/workspace) for anything model-facing. */
  readFile(runId: string, path: string): Promise<WorkspaceFile | undefined>;
  writeFile(file: WorkspaceFile): Promise<void>;
  deleteFile(runId: string, path: string): Promise<void>;
  /**
   * Files whose path starts with `prefix` (all files when empty), sorted by path, leaving out those
   * under `except.folder` (a folder ending with `/`) unread: a write's checks skip the page's chat.
   */
  listFiles(runId: string, prefix?: string, except?: { folder: string }): Promise<WorkspaceFile[]>;
  /**
   * Reads the run's files (as `listFiles` with `except`), hands them to `decide` and writes the file
   * it gives back, in one transaction: a write is stored against the files it was checked against.
   * `decide` runs at once (no waiting inside it) and throws to write nothing.
   */
  writeFileChecked(runId: string, except: { folder: string } | undefined, decide: (files: WorkspaceFile[]) => WorkspaceFile): Promise<WorkspaceFile>;

  /**
   * Agent memory (docs/agent-memory.md): one version per conversation and reply, keyed by
   * [conversationId, lineKey]; a put replaces the version with the same key. A run's versions are
   * deleted with it.
   */
  putMemoryVersion(version: MemoryVersion): Promise<void>;
  getMemoryVersion(conversationId: string, lineKey: string): Promise<MemoryVersion | undefined>;
  /** The line keys of a conversation that have a memory version. */
  listMemoryLineKeys(conversationId: string): Promise<Set<string>>;
  /** The memory versions a run's reply made (one, or none before its reply is recorded). */
  listMemoryVersionsOfRun(runId: string): Promise<MemoryVersion[]>;

  /**
   * The bytes this store object wrote for a run, counted as they were written (no scan); undefined
   * for a run it wrote nothing of, or a store that does not count (`openRunStore` does).
   */
  writtenBytes?(runId: string): WrittenBytes | undefined;
  /**
   * Counts records another store object wrote, read back now (a run resumed by a new worker: its
   * snapshot and histories), as if this one had written them, so `writtenBytes` covers the whole run.
   */
  countStored?(records: { files?: readonly WorkspaceFile[]; invocations?: readonly AgentInvocation[] }): void;

  /** Deletes runs created before `olderThan` that are not running; returns how many. */
  pruneRuns(olderThan: number): Promise<number>;
  close(): void;
}
