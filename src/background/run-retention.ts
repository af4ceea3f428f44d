import { browser } from 'wxt/browser';
import type { BackgroundContext } from './background-context';

/** The `browser.storage.local` key holding when old runs were last pruned (ms since the epoch). */
export const LAST_PRUNE_KEY = 'runsLastPrunedAt';
/** Runs are pruned at most this often. */
export const PRUNE_INTERVAL_MS = 24 * 60 * 60 * 1_000;
const DAY_MS = 24 * 60 * 60 * 1_000;

/** The slice of `browser.storage.local` retention needs. */
export interface RetentionStorage {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

export interface RunRetentionOptions {
  context: Pick<BackgroundContext, 'getStore' | 'getSettings'>;
  now?: () => number;
  /** Where the time of the last prune is kept; defaults to `browser.storage.local`. */
  storage?: RetentionStorage;
  /**
   * How long after start-up the first prune waits: the event that woke the worker (a turn, most
   * often) goes first and does not share the store with a prune. Defaults to
   * `STARTUP_PRUNE_DELAY_MS`.
   */
  startupDelayMs?: number;
}

/** Long enough for a waking turn to reach its first model call, short of Chrome's 30 s idle stop. */
export const STARTUP_PRUNE_DELAY_MS = 10_000;

export interface RunRetention {
  /**
   * Deletes runs older than `defaults.retentionDays` (never a running one) when the last prune was a
   * day ago or more; resolves with how many went (0 when it was not due).
   */
  pruneIfDue(): Promise<number>;
  /** Stops pruning after runs end. */
  stop(): void;
}

/**
 * Keeps the run store to the retention setting without waking the background: it prunes shortly after the
 * background starts and when a run ends, at most once a day (no alarm; the time of the last prune
 * is kept in `storage.local` so a worker that restarts often does not prune each time).
 *
 * @example
 * installRunRetention({ context: sharedBackgroundContext() });
 */
export function installRunRetention(options: RunRetentionOptions): RunRetention {
  const now = options.now ?? Date.now;
  const storage = options.storage ?? browser.storage.local;
  let running: Promise<number> | undefined;

  async function prune(): Promise<number> {
    const stored = await storage.get(LAST_PRUNE_KEY);
    const last = stored[LAST_PRUNE_KEY];
    const startedAt = now();
    if (typeof last === 'number' && last <= startedAt && startedAt - last < PRUNE_INTERVAL_MS) return 0;
    const [store, settings] = await Promise.all([options.context.getStore(), options.context.getSettings()]);
    const pruned = await store.pruneRuns(startedAt - settings.defaults.retentionDays * DAY_MS);
    await storage.set({ [LAST_PRUNE_KEY]: startedAt });
    return pruned;
  }

  const pruneIfDue = (): Promise<number> => {
    // Two runs ending together share one prune.
    running ??= prune().finally(() => {
      running = undefined;
    });
    return running;
  };
  const report = (error: unknown) => console.error('Retinue could not prune old runs', error);

  let unsubscribe: (() => void) | undefined;
  let stopped = false;
  void options.context.getStore().then((store) => {
    if (stopped) return;
    unsubscribe = store.onJournalAppended((event) => {
      if (event.type === 'run-end') pruneIfDue().catch(report);
    });
  }, report);
  const startupPrune = setTimeout(() => pruneIfDue().catch(report), options.startupDelayMs ?? STARTUP_PRUNE_DELAY_MS);

  return {
    pruneIfDue,
    stop() {
      stopped = true;
      clearTimeout(startupPrune);
      unsubscribe?.();
    },
  };
}
