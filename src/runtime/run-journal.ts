import { HostContractError, RetinueError } from '../errors';
import type { JournalEventDataInput, JournalEventType } from '../records/journal';
import type { NewJournalEvent, RunStore } from '../store/run-store';

/** What a writer gives for one event: its ids and the data its type's schema (`records/journal-events.ts`) takes. */
export interface JournalFields<T extends JournalEventType = JournalEventType> {
  invocationId?: string;
  taskId?: string;
  data?: JournalEventDataInput<T>;
}

/**
 * How long noted events wait for a step of the run to carry them before they are written on their
 * own: long enough for a round at zero model latency (a few ms) to take them along, short enough
 * that the side panel's timeline does not lag (a slow model call's start shows within it).
 */
export const JOURNAL_IDLE_MS = 20;

export interface RunJournalOptions {
  store: RunStore;
  runId: string;
  now: () => number;
  /** Called when a write of the journal's own fails (the run fails fast). */
  onFailure?: (error: RetinueError) => void;
  /** Defaults to `JOURNAL_IDLE_MS`. */
  idleMs?: number;
}

function asJournalError(error: unknown): RetinueError {
  return error instanceof RetinueError ? error : new HostContractError('journal-append-failed', `The journal could not be written: ${String(error)}`, { cause: error });
}

/**
 * A run's journal events, stored in the order they were noted (children run in parallel). A noted
 * event waits for the run's next step (`take`, then the step's write carries it: one transaction per
 * step, see RunSession.saveStep) or, after `JOURNAL_IDLE_MS` without one, is written alone; every
 * write has the journal in its scope, so IndexedDB keeps them in order. A standalone write that fails
 * calls `onFailure` (the run fails fast); `flush`/`record` reject with any failure, so nothing is
 * dropped silently.
 */
export class RunJournal {
  private pending: NewJournalEvent[] = [];
  private readonly writes = new Set<Promise<void>>();
  private idle: ReturnType<typeof setTimeout> | undefined;
  private failure: RetinueError | undefined;

  private readonly store: RunStore;
  private readonly runId: string;
  private readonly now: () => number;
  private readonly onFailure: (error: RetinueError) => void;
  private readonly idleMs: number;

  constructor(options: RunJournalOptions) {
    this.store = options.store;
    this.runId = options.runId;
    this.now = options.now;
    this.onFailure = options.onFailure ?? (() => undefined);
    this.idleMs = options.idleMs ?? JOURNAL_IDLE_MS;
  }

  /** Notes an event now; it is stored after every event noted before it. */
  note<T extends JournalEventType>(type: T, fields: JournalFields<T> = {}): void {
    if (this.failure) return;
    this.pending.push({ runId: this.runId, type, time: this.now(), invocationId: fields.invocationId, taskId: fields.taskId, data: fields.data ?? {} } as NewJournalEvent);
    this.idle ??= setTimeout(() => {
      this.idle = undefined;
      this.writePending();
    }, this.idleMs);
  }

  /** The events noted since the last write, for a step about to be written to carry (then `carry` it). */
  take(): NewJournalEvent[] {
    if (this.idle !== undefined) clearTimeout(this.idle);
    this.idle = undefined;
    const taken = this.pending;
    this.pending = [];
    return taken;
  }

  /**
   * Tracks a step's write that carries taken events, so `flush` waits for it. Its failure is the
   * step's own (its caller handles it); the journal only remembers that its events were not stored.
   */
  carry(write: Promise<unknown>): void {
    this.track(write, false);
  }

  /** Resolves when every event noted so far is stored; rejects if any could not be. */
  async flush(): Promise<void> {
    this.writePending();
    await Promise.all([...this.writes]);
    if (this.failure) throw this.failure;
  }

  /** Notes an event and waits until it (and everything before it) is stored. */
  async record<T extends JournalEventType>(type: T, fields: JournalFields<T> = {}): Promise<void> {
    this.note(type, fields);
    await this.flush();
  }

  private writePending(): void {
    const events = this.take();
    if (events.length === 0 || this.failure) return;
    this.track(this.store.saveStep({ journal: events }), true);
  }

  private track(write: Promise<unknown>, failsRun: boolean): void {
    const tracked: Promise<void> = write.then(
      () => undefined,
      (error: unknown) => {
        if (this.failure) return;
        this.failure = asJournalError(error);
        if (failsRun) this.onFailure(this.failure);
      },
    );
    this.writes.add(tracked);
    void tracked.finally(() => this.writes.delete(tracked));
  }
}
