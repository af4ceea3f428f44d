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
 * Appends a run's journal events one after another, in step order (children run in parallel).
 * `note` keeps appends off the loop's critical path; a failed append calls `onFailure` (the run
 * fails fast) and `flush`/`record` reject with it, so nothing is dropped silently.
 */
export class RunJournal {
  private tail: Promise<void> = Promise.resolve();
  private failure: RetinueError | undefined;

  constructor(
    private readonly store: RunStore,
    private readonly runId: string,
    private readonly now: () => number,
    private readonly onFailure: (error: RetinueError) => void = () => undefined,
  ) {}

  /** Queues an event; it is stored in order, after every event noted before it. */
  note<T extends JournalEventType>(type: T, fields: JournalFields<T> = {}): void {
    const time = this.now();
    this.tail = this.tail.then(async () => {
      if (this.failure) return;
      try {
        await this.store.appendJournal({ runId: this.runId, type, time, invocationId: fields.invocationId, taskId: fields.taskId, data: fields.data ?? {} } as NewJournalEvent);
      } catch (error) {
        this.failure =
          error instanceof RetinueError ? error : new HostContractError('journal-append-failed', `The journal could not be written: ${String(error)}`, { cause: error });
        this.onFailure(this.failure);
      }
    });
  }

  /** Resolves when every event noted so far is stored; rejects if any could not be. */
  async flush(): Promise<void> {
    await this.tail;
    if (this.failure) throw this.failure;
  }

  /** Notes an event and waits until it (and everything before it) is stored. */
  async record<T extends JournalEventType>(type: T, fields: JournalFields<T> = {}): Promise<void> {
    this.note(type, fields);
    await this.flush();
  }
}
