import type { AgentRun } from '../records/run';
import { fileBytes, jsonBytes, utf8Bytes } from '../store/metered-run-store';
import type { RunStore } from '../store/run-store';

/**
 * How many bytes one site's runs may keep in the run store. A run of an ordinary chat is tens of
 * kilobytes; the biggest snapshot a page may send (4 M characters) is a few megabytes, so 64 MB keeps
 * hundreds of ordinary turns, or a dozen of the biggest, while a page that sends the biggest snapshot
 * 20 times a minute can no longer write gigabytes an hour.
 */
export const ORIGIN_STORAGE_QUOTA_BYTES = 64 * 1024 * 1024;

export { utf8Bytes };

const recordBytes = (records: readonly unknown[]): number => records.reduce<number>((sum, record) => sum + jsonBytes(record), 0);

/** What a run keeps in the store: its record, invocations with their histories, tasks, files and journal. */
export async function measureRunBytes(store: RunStore, run: AgentRun): Promise<number> {
  const [invocations, tasks, files, journal] = await Promise.all([
    store.listInvocations(run.id),
    store.listTasks(run.id),
    store.listFiles(run.id),
    store.readJournal(run.id),
  ]);
  const { storedBytes: _measured, ...record } = run;
  return recordBytes([record, ...invocations, ...tasks, ...journal]) + files.reduce((sum, file) => sum + fileBytes(file), 0);
}

export interface OriginStorageQuota {
  /** The bytes one origin may keep. */
  readonly quotaBytes: number;
  /**
   * Whether a new run of `origin` that brings `incomingBytes` (its snapshot) fits: the oldest ended
   * runs of that origin are deleted until it does; false when even that cannot make room (the turn
   * then passes through to the page's own model).
   */
  admit(origin: string, incomingBytes: number): Promise<boolean>;
  /**
   * Measures a run that has just ended, once its reply is out, so that the next turn's `admit`
   * (before that turn's first model call) finds its size known rather than reading the run.
   */
  remember(run: AgentRun): Promise<void>;
}

/**
 * What the quota last found one origin keeping: its runs' bytes, and its newest run then (absent: it
 * had none). A run made since is newer than that one (a run takes its creation time), so the figure
 * holds while the newest run is the same; a run deleted since only leaves the figure too high.
 */
export interface OriginSizeHint {
  bytes: number;
  newestRunId?: string;
}

/** Where the quota keeps each origin's figure for the next worker (`storage.session` in the extension). */
export interface OriginSizeHints {
  read(origin: string): Promise<OriginSizeHint | undefined>;
  write(origin: string, hint: OriginSizeHint): Promise<void>;
  forget(origin: string): Promise<void>;
}

const sameNewest = (hint: OriginSizeHint, newest: string | undefined): boolean => hint.newestRunId === newest;

/**
 * Below this share of the quota, a turn is let in on the kept figure without reading the runs. The
 * rest covers what ended runs gained since they were counted (a result or a review written later).
 */
export const KEPT_FIGURE_SHARE = 0.75;

export interface OriginStorageQuotaOptions {
  getStore: () => Promise<RunStore>;
  quotaBytes?: number;
  /** Without them every turn reads the origin's runs. */
  sizeHints?: OriginSizeHints;
}

/**
 * The per-origin quota of the run store. A run is measured in full once per background (an ended one
 * once for good: its size is kept on its record as `storedBytes`); after that its size is that
 * measurement plus what the store counted it write since (`RunStore.writtenBytes`), so a run that
 * grows while it works, or a helper's result written to a run that already ended, is seen at the
 * next check without reading the run again. An ended run that grew has its `storedBytes` updated.
 *
 * @example
 * const quota = createOriginStorageQuota({ getStore: context.getStore });
 * if (!(await quota.admit(origin, snapshotBytes))) passThroughWithNotice();
 */
export function createOriginStorageQuota(options: OriginStorageQuotaOptions): OriginStorageQuota {
  const quotaBytes = options.quotaBytes ?? ORIGIN_STORAGE_QUOTA_BYTES;
  /** Per run: its size when it was last measured or updated, and the store's count of its writes then. */
  const baselines = new Map<string, { bytes: number; written: number }>();

  async function sizeOf(store: RunStore, run: AgentRun): Promise<number> {
    const written = store.writtenBytes?.(run.id)?.total ?? 0;
    let baseline = baselines.get(run.id);
    if (!baseline) {
      // Kept from an earlier background: whatever this one wrote of the run came after it.
      if (run.status !== 'running' && run.storedBytes !== undefined) baseline = { bytes: run.storedBytes, written: 0 };
      else baseline = { bytes: await measureRunBytes(store, run), written };
      baselines.set(run.id, baseline);
    }
    const bytes = baseline.bytes + Math.max(0, written - baseline.written);
    if (run.status !== 'running' && run.storedBytes !== bytes) {
      // Kept for the next background; the turn that asked need not wait for the write. The record's
      // own growth by the field is not the run's: the baseline takes the count after the write.
      const kept = { bytes, written };
      baselines.set(run.id, kept);
      void store.putRun({ ...run, storedBytes: bytes }).then(
        () => baselines.get(run.id) === kept && baselines.set(run.id, { bytes, written: store.writtenBytes?.(run.id)?.total ?? written }),
        (error: unknown) => console.error("Retinue: a run's stored size could not be kept.", error),
      );
    }
    return bytes;
  }

  return {
    quotaBytes,
    async admit(origin, incomingBytes) {
      if (incomingBytes > quotaBytes) return false;
      const store = await options.getStore();
      const hints = options.sizeHints;
      if (hints) {
        const [hint, [newest]] = await Promise.all([hints.read(origin).catch(() => undefined), store.newestRunIds(origin, 1)]);
        // No run came since the figure was kept, and it is far from the quota: nothing to read (every
        // run record of a site with hundreds of runs takes tens of milliseconds before each turn).
        if (hint && sameNewest(hint, newest) && hint.bytes + incomingBytes <= quotaBytes * KEPT_FIGURE_SHARE) return true;
      }
      const runs = await store.listRuns({ origin });
      const sized = await Promise.all(runs.map(async (run) => ({ run, bytes: await sizeOf(store, run) })));
      let total = sized.reduce((sum, entry) => sum + entry.bytes, 0);
      // Oldest first; a running run is never deleted.
      const prunable = sized.filter((entry) => entry.run.status !== 'running').sort((left, right) => left.run.createdAt - right.run.createdAt);
      const deleted = new Set<string>();
      for (const entry of prunable) {
        if (total + incomingBytes <= quotaBytes) break;
        await store.deleteRun(entry.run.id);
        baselines.delete(entry.run.id);
        deleted.add(entry.run.id);
        total -= entry.bytes;
      }
      // Newest first (listRuns): the newest run kept.
      const newestKept = runs.find((run) => !deleted.has(run.id));
      hints?.write(origin, { bytes: total, ...(newestKept ? { newestRunId: newestKept.id } : {}) }).catch((error: unknown) => console.error("Retinue: a site's stored size could not be kept.", error));
      return total + incomingBytes <= quotaBytes;
    },
    async remember(run) {
      if (run.status === 'running' || baselines.has(run.id)) return;
      const store = await options.getStore();
      const bytes = await sizeOf(store, run);
      const hints = options.sizeHints;
      if (!hints) return;
      // The run this turn added, on top of the figure its admission read: kept only when it is the one
      // run made since (it is the newest, and the one before it is the figure's). Else the figure is
      // dropped and the next turn reads the runs: another run came meanwhile, or this one is not the
      // newest (the clock went back), so the next turn's check could not see it.
      const [hint, [newest, before]] = await Promise.all([hints.read(run.origin).catch(() => undefined), store.newestRunIds(run.origin, 2)]);
      if (!hint) return;
      if (newest === run.id && sameNewest(hint, before)) await hints.write(run.origin, { bytes: hint.bytes + bytes, newestRunId: run.id });
      else await hints.forget(run.origin);
    },
  };
}
