import type { JournalEventType } from '../records/journal';
import type { RunStore } from '../store/run-store';

export interface JournalFields {
  invocationId?: string;
  taskId?: string;
  data?: Record<string, unknown>;
}

/**
 * Appends a run's journal events one after another (children run in parallel, the journal stays
 * in step order). A failed append rejects with the store's HostContractError: the run fails fast.
 */
export class RunJournal {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: RunStore,
    private readonly runId: string,
    private readonly now: () => number,
  ) {}

  record(type: JournalEventType, fields: JournalFields = {}): Promise<void> {
    const time = this.now();
    const append = this.tail.then(() =>
      this.store.appendJournal({ runId: this.runId, type, time, invocationId: fields.invocationId, taskId: fields.taskId, data: fields.data ?? {} }),
    );
    this.tail = append.catch(() => undefined);
    return append.then(() => undefined);
  }
}
