import { CancelledError, RetinueError } from '../errors';

/**
 * The runtime stopped where it stood without recording an end (as when the browser stops the
 * service worker); the run stays `running` in the store so a new runtime can resume it.
 */
export class RunSuspendedError extends RetinueError {
  constructor() {
    super('cancelled', 'run-suspended', 'The runtime stopped; the run can be resumed from the store.');
  }
}

/** A delegated task ran past its profile's `budget.timeoutMs`. */
export class TaskTimeoutError extends RetinueError {
  constructor(readonly timeoutMs: number) {
    super('cancelled', 'task-timeout', `The task ran out of time after ${Math.round(timeoutMs / 1000)} s before returning a result.`);
  }
}

/** The reason an aborted signal carries, as a RetinueError (a bare abort becomes a CancelledError). */
export function abortReason(signal: AbortSignal): RetinueError {
  const reason: unknown = signal.reason;
  if (reason instanceof RetinueError) return reason;
  return new CancelledError(reason instanceof Error ? reason.message : undefined, { cause: reason });
}

/** Whether the runtime suspended this work (no records are to be written). */
export function isSuspended(signal: AbortSignal): boolean {
  return signal.aborted && signal.reason instanceof RunSuspendedError;
}

/**
 * A controller whose signal aborts when `parent` aborts, with the parent's reason: the run →
 * invocations → model calls and tools tree. `dispose` unhooks it from the parent.
 */
export function childAbortController(parent: AbortSignal): { controller: AbortController; dispose: () => void } {
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { controller, dispose: () => undefined };
  }
  const forward = (): void => controller.abort(parent.reason);
  parent.addEventListener('abort', forward, { once: true });
  return { controller, dispose: () => parent.removeEventListener('abort', forward) };
}
