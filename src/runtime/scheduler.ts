import { childAbortController } from './run-signals';

export interface TaskSchedulerOptions {
  /** Children running at once in this run (`defaults.maxRunningChildren`). */
  maxRunning: number;
  /** The run's signal: aborting it aborts every child, with the run's reason. */
  parentSignal: AbortSignal;
  /** Runs one task to its end, records included. Never expected to reject. */
  runTask: (taskId: string, signal: AbortSignal, timer: TaskTimer) => Promise<void>;
}

/**
 * A running task's own timeout. The task arms it itself (from its first model call on, see
 * task-clock.ts), so time spent queued here does not count.
 */
export interface TaskTimer {
  /** Aborts the task with `reason` after `delayMs` (replacing any earlier arming). */
  arm(delayMs: number, reason: Error): void;
  disarm(): void;
}

interface RunningTask {
  controller: AbortController;
  done: Promise<void>;
  /** The waiting task whose slot this one runs on; undefined on one of the run's own slots. */
  onSlotOf?: string;
}

/**
 * Runs delegated tasks in the background: at once while a slot is free, the rest in a queue, each
 * with its own AbortController under the run's signal and a timer the task arms itself. Per-connection caps
 * are the model clients' business (their limiter), not the scheduler's.
 */
export class TaskScheduler {
  private readonly queue: string[] = [];
  private readonly running = new Map<string, RunningTask>();
  private readonly listeners = new Set<() => void>();
  /** Running tasks waiting for tasks they started (nested delegation): their slots are lent meanwhile. */
  private readonly waiting = new Set<string>();
  /** A queued task's parent task (nested delegation): the only one whose lent slot it may take. */
  private readonly parentOf = new Map<string, string>();

  constructor(private readonly options: TaskSchedulerOptions) {}

  /**
   * Starts the task now when a slot is free, else queues it. Returns where it went. `parentTaskId`
   * names the task that started it (nested delegation): while that one waits, its slot is this one's.
   */
  enqueue(taskId: string, parentTaskId?: string): 'running' | 'queued' {
    if (this.running.has(taskId) || this.queue.includes(taskId)) return this.running.has(taskId) ? 'running' : 'queued';
    if (parentTaskId !== undefined) this.parentOf.set(taskId, parentTaskId);
    this.queue.push(taskId);
    this.pump();
    return this.running.has(taskId) ? 'running' : 'queued';
  }

  isRunning(taskId: string): boolean {
    return this.running.has(taskId);
  }

  isQueued(taskId: string): boolean {
    return this.queue.includes(taskId);
  }

  /**
   * Stops a task: a queued one leaves the queue (`dequeued`: the caller records it), a running one
   * is aborted with `reason` (`aborted`: its runner records it). Resolves once a running task settled.
   */
  async cancel(taskId: string, reason: Error): Promise<'dequeued' | 'aborted' | 'not-active'> {
    const index = this.queue.indexOf(taskId);
    if (index !== -1) {
      this.queue.splice(index, 1);
      this.parentOf.delete(taskId);
      return 'dequeued';
    }
    const running = this.running.get(taskId);
    if (!running) return 'not-active';
    running.controller.abort(reason);
    await running.done;
    return 'aborted';
  }

  /** Empties the queue (returns the ids left queued) and aborts every running task with `reason`. */
  cancelAll(reason: Error): string[] {
    const dequeued = this.queue.splice(0, this.queue.length);
    this.parentOf.clear();
    for (const running of this.running.values()) running.controller.abort(reason);
    return dequeued;
  }

  /** Resolves when no task is running (queued tasks do not start once the run is aborted). */
  async settled(): Promise<void> {
    while (this.running.size > 0) {
      await Promise.all([...this.running.values()].map((running) => running.done));
    }
  }

  /**
   * Resolves at the next task end (or queue change), after `timeoutMs`, or when `signal` aborts.
   * A running task that waits here for the tasks it started (`waitingTaskId`) lends its slot to
   * them, and only to them, meanwhile: a run full of waiting parents cannot starve their own
   * children, and a waiting parent's slot never goes to a task it does not wait for.
   */
  waitForChange(timeoutMs: number, signal: AbortSignal, waitingTaskId?: string): Promise<void> {
    const lends = waitingTaskId !== undefined && this.running.has(waitingTaskId) && !this.waiting.has(waitingTaskId);
    if (lends) {
      this.waiting.add(waitingTaskId);
      this.pump();
    }
    return new Promise((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        this.listeners.delete(finish);
        signal.removeEventListener('abort', finish);
        if (lends) this.waiting.delete(waitingTaskId);
        resolve();
      };
      const timer = setTimeout(finish, Math.max(0, timeoutMs));
      this.listeners.add(finish);
      signal.addEventListener('abort', finish, { once: true });
    });
  }

  /** Wakes everyone waiting in `waitForChange` (a task ended or left the queue). */
  notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  /** Whether one of the run's own slots is free (a waiting task keeps its slot, lent to its children). */
  private ownSlotFree(): boolean {
    let taken = 0;
    for (const running of this.running.values()) if (running.onSlotOf === undefined) taken += 1;
    return taken < this.options.maxRunning;
  }

  /** The waiting parent whose lent slot `taskId` may take now, if any. */
  private lentSlotFor(taskId: string): string | undefined {
    const parent = this.parentOf.get(taskId);
    if (parent === undefined || !this.waiting.has(parent)) return undefined;
    for (const running of this.running.values()) if (running.onSlotOf === parent) return undefined;
    return parent;
  }

  /** Starts queued tasks, in order, while a slot they may take is free. */
  private pump(): void {
    if (this.options.parentSignal.aborted) return;
    for (let index = 0; index < this.queue.length; ) {
      const taskId = this.queue[index] as string;
      const lender = this.lentSlotFor(taskId);
      if (lender === undefined && !this.ownSlotFree()) {
        index += 1;
        continue;
      }
      this.queue.splice(index, 1);
      this.parentOf.delete(taskId);
      this.start(taskId, lender);
    }
  }

  private start(taskId: string, onSlotOf: string | undefined): void {
    const { controller, dispose } = childAbortController(this.options.parentSignal);
    let timeout: ReturnType<typeof setTimeout> | undefined;
    const timer: TaskTimer = {
      arm(delayMs, reason) {
        clearTimeout(timeout);
        // A deadline already past ends the task now, before it can make another call.
        if (delayMs <= 0) controller.abort(reason);
        else timeout = setTimeout(() => controller.abort(reason), delayMs);
      },
      disarm: () => clearTimeout(timeout),
    };
    const done = Promise.resolve()
      .then(() => this.options.runTask(taskId, controller.signal, timer))
      .catch(() => undefined)
      .finally(() => {
        timer.disarm();
        dispose();
        this.running.delete(taskId);
        this.waiting.delete(taskId);
        this.pump();
        this.notify();
      });
    this.running.set(taskId, { controller, done, ...(onSlotOf !== undefined ? { onSlotOf } : {}) });
  }
}
