import { CancelledError } from '../errors';

/** Gives back the slot a caller holds; calling it twice is harmless. */
export type ReleaseSlot = () => void;

/**
 * A semaphore that caps how many calls run at once, first come, first served, except that an urgent
 * caller waits ahead of every caller that is not (in turn among the urgent ones).
 */
export interface ConcurrencyLimiter {
  readonly maxConcurrency: number;
  /** Slots in use now. */
  readonly active: number;
  /** Callers waiting for a slot. */
  readonly waiting: number;
  /** Waits for a slot; rejects with CancelledError when `signal` aborts first (the wait is then dropped). */
  acquire(signal?: AbortSignal, options?: AcquireOptions): Promise<ReleaseSlot>;
  /** Runs `work` in a slot and releases the slot however it ends. */
  run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

export interface AcquireOptions {
  /** Waits ahead of the callers that are not urgent; never takes a slot from a caller holding one. */
  urgent?: boolean;
}

interface Waiter {
  urgent: boolean;
  grant: (release: ReleaseSlot) => void;
}

/**
 * Creates a limiter allowing `maxConcurrency` slots at once (at least 1).
 *
 * @example
 * const limiter = createConcurrencyLimiter(2);
 * const answer = await limiter.run(() => callModel(), signal);
 */
export function createConcurrencyLimiter(maxConcurrency: number): ConcurrencyLimiter {
  const limit = Math.max(1, Math.floor(maxConcurrency));
  const queue: Waiter[] = [];
  let active = 0;

  function makeRelease(): ReleaseSlot {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = queue.shift();
      // Hand the slot straight to the next waiter, so `active` never dips and a newcomer cannot jump the queue.
      if (next) next.grant(makeRelease());
      else active -= 1;
    };
  }

  function acquire(signal?: AbortSignal, options: AcquireOptions = {}): Promise<ReleaseSlot> {
    if (signal?.aborted) return Promise.reject(cancelledBy(signal));
    if (active < limit) {
      active += 1;
      return Promise.resolve(makeRelease());
    }
    return new Promise<ReleaseSlot>((resolve, reject) => {
      const onAbort = () => {
        const position = queue.indexOf(waiter);
        if (position >= 0) queue.splice(position, 1);
        reject(cancelledBy(signal as AbortSignal));
      };
      const waiter: Waiter = {
        urgent: options.urgent === true,
        grant: (release) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
      };
      const firstNotUrgent = waiter.urgent ? queue.findIndex((queued) => !queued.urgent) : -1;
      if (firstNotUrgent >= 0) queue.splice(firstNotUrgent, 0, waiter);
      else queue.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  return {
    maxConcurrency: limit,
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
    acquire,
    async run(work, signal) {
      const release = await acquire(signal);
      try {
        return await work();
      } finally {
        release();
      }
    },
  };
}

/** The CancelledError an aborted signal stands for: its own reason when that is one already. */
export function cancelledBy(signal: AbortSignal, what = 'The work'): CancelledError {
  const reason: unknown = signal.reason;
  if (reason instanceof CancelledError) return reason;
  const detail = typeof reason === 'string' ? `: ${reason}` : '';
  return new CancelledError(`${what} was cancelled${detail}.`, { cause: reason });
}
