import type { AgentInvocation } from '../records/invocation';

/** What one invocation's delegate calls created since its last write: stored with its next tool result. */
export interface TakenCreations {
  invocations: AgentInvocation[];
  taskIds: string[];
  /** Hands over the write that stores them; tasks waiting in `stored` go on once it is done. */
  settle(write: Promise<unknown>): void;
}

interface Batch extends TakenCreations {
  /** True once stored; false when the creator stopped before storing them (`abandon`). */
  stored: Promise<boolean>;
  abandon(): void;
}

function newBatch(): Batch {
  let settle: (write: Promise<unknown>) => void = () => undefined;
  let abandon: () => void = () => undefined;
  const stored = new Promise<boolean>((resolve, reject) => {
    settle = (write) => write.then(() => resolve(true), reject);
    abandon = () => resolve(false);
  });
  // A batch whose write failed fails the run through that write; waiters see it too, never unhandled.
  stored.catch(() => undefined);
  return { invocations: [], taskIds: [], stored, settle, abandon };
}

/**
 * Tasks a delegate call created but has not stored yet. The records of every delegate call of one
 * turn are written in one step with the turn's tool results (tool-execution.ts), so the children of
 * one turn start together; until that step is stored a child waits (`stored`), and so does anything
 * that would write its records first (a cancel), so the step cannot overwrite a later state. A
 * creator that stops before its step (cancelled, suspended) abandons them: they were never stored,
 * and a resumed run makes them again from the same calls.
 */
export class StagedCreations {
  private readonly batches = new Map<string, Batch>();
  private readonly byTask = new Map<string, Promise<boolean>>();
  /** Child invocations as created, so a child's start need not read back what was just written. */
  private readonly fresh = new Map<string, AgentInvocation>();

  stage(creatorId: string, child: AgentInvocation, taskId: string): void {
    let batch = this.batches.get(creatorId);
    if (!batch) this.batches.set(creatorId, (batch = newBatch()));
    batch.invocations.push(child);
    batch.taskIds.push(taskId);
    this.fresh.set(child.id, child);
    this.byTask.set(taskId, batch.stored);
    void batch.stored.then(
      () => this.byTask.delete(taskId),
      () => undefined,
    );
  }

  /** What `creatorId` staged since its last write (nothing: empty lists, and settling does nothing). */
  take(creatorId: string): TakenCreations {
    const batch = this.batches.get(creatorId);
    if (!batch) return { invocations: [], taskIds: [], settle: () => undefined };
    this.batches.delete(creatorId);
    return batch;
  }

  /** Drops what `creatorId` staged and did not store; gives the ids of the tasks dropped. */
  abandon(creatorId: string): string[] {
    const batch = this.batches.get(creatorId);
    if (!batch) return [];
    this.batches.delete(creatorId);
    for (const invocation of batch.invocations) this.fresh.delete(invocation.id);
    batch.abandon();
    return batch.taskIds;
  }

  /** Whether the task's creation is stored, once that is known (at once for a task not staged here). */
  async stored(taskId: string): Promise<boolean> {
    return (await this.byTask.get(taskId)) ?? true;
  }

  /** The child invocation as its task created it, handed out once; undefined after that or after a restart. */
  takeFresh(invocationId: string): AgentInvocation | undefined {
    const child = this.fresh.get(invocationId);
    this.fresh.delete(invocationId);
    return child;
  }
}
