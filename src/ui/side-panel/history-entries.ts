import type { Signal } from '@preact/signals';
import type { JournalEvent } from '../../records/journal';
import type { AgentRun } from '../../records/run';
import type { RunStore } from '../../store/run-store';

/** The events after which a run's row in history may read differently (its status, its reply). */
export const HISTORY_STATUS_EVENTS: ReadonlySet<JournalEvent['type']> = new Set(['run-start', 'run-end', 'run-resume', 'run-reopen', 'run-reply']);

/**
 * History with `run` as it stands now: its entry replaced, or put where the store lists it (newest
 * first), at most `limit` entries. The panel keeps its history so as a run starts and ends, instead
 * of reading every listed run again (up to 2,000, each checked against its schema) twice a turn.
 */
export function historyWithRun(history: readonly AgentRun[], run: AgentRun, limit: number): AgentRun[] {
  const index = history.findIndex((entry) => entry.id === run.id);
  if (index !== -1) return history.map((entry, at) => (at === index ? run : entry));
  const before = history.findIndex((entry) => entry.createdAt < run.createdAt);
  const position = before === -1 ? history.length : before;
  return [...history.slice(0, position), run, ...history.slice(position)].slice(0, limit);
}

export interface HistoryKeeperOptions {
  store: RunStore;
  history: Signal<AgentRun[]>;
  /** The site history lists, and whether it lists only that site. */
  scope: () => { origin: string | undefined; siteOnly: boolean };
  limit: number;
  report(error: unknown): void;
}

/** How the side panel's history follows the store: read whole, a run kept as it stands, runs dropped. */
export interface HistoryKeeper {
  /** Reads history whole (opening the panel, another site, a reconnect, a deletion made here). */
  readWhole(): Promise<void>;
  /**
   * Keeps a run as it stands once one of its status events is stored, whether or not the panel shows
   * it (two tabs of a site run at once). One read at a time, so an earlier read never lands over a
   * later one. Resolves once this run's read has landed.
   */
  keep(runId: string): Promise<void>;
  /** Drops runs the background deleted (retention, a site's storage quota). */
  drop(runIds: readonly string[]): void;
}

export function createHistoryKeeper(options: HistoryKeeperOptions): HistoryKeeper {
  const { store, history, scope, limit } = options;
  let keeping: Promise<void> = Promise.resolve();
  return {
    async readWhole() {
      const { origin, siteOnly } = scope();
      if (siteOnly && !origin) {
        history.value = [];
        return;
      }
      history.value = await store.listRuns({ origin: siteOnly ? origin : undefined, limit });
    },
    keep(runId) {
      keeping = keeping
        .then(async () => {
          const entry = await store.getRun(runId);
          const { origin, siteOnly } = scope();
          if (!entry || (siteOnly && entry.origin !== origin)) return;
          history.value = historyWithRun(history.value, entry, limit);
        })
        .catch(options.report);
      return keeping;
    },
    drop(runIds) {
      const gone = new Set(runIds);
      history.value = history.value.filter((entry) => !gone.has(entry.id));
    },
  };
}
