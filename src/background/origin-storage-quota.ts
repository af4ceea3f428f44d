import type { AgentRun } from '../records/run';
import type { RunStore } from '../store/run-store';

/**
 * How many bytes one site's runs may keep in the run store. A run of an ordinary chat is tens of
 * kilobytes; the biggest snapshot a page may send (4 M characters) is a few megabytes, so 64 MB keeps
 * hundreds of ordinary turns, or a dozen of the biggest, while a page that sends the biggest snapshot
 * 20 times a minute can no longer write gigabytes an hour.
 */
export const ORIGIN_STORAGE_QUOTA_BYTES = 64 * 1024 * 1024;

/** The bytes of `text` in UTF-8, the way a JSON record is counted. */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      // A surrogate pair is one four-byte character.
      bytes += 4;
      index += 1;
    } else bytes += 3;
  }
  return bytes;
}

const recordBytes = (records: readonly unknown[]): number => records.reduce<number>((sum, record) => sum + utf8Bytes(JSON.stringify(record) ?? ''), 0);

/** What a run keeps in the store: its record, invocations with their histories, tasks, files and journal. */
export async function measureRunBytes(store: RunStore, run: AgentRun): Promise<number> {
  const [invocations, tasks, files, journal] = await Promise.all([
    store.listInvocations(run.id),
    store.listTasks(run.id),
    store.listFiles(run.id),
    store.readJournal(run.id),
  ]);
  const { storedBytes: _measured, ...record } = run;
  return recordBytes([record, ...invocations, ...tasks, ...files, ...journal]);
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
}

export interface OriginStorageQuotaOptions {
  getStore: () => Promise<RunStore>;
  quotaBytes?: number;
}

/**
 * The per-origin quota of the run store. An ended run is measured once and its size kept on its
 * record (`storedBytes`), so a later check reads one number per run; a running run is measured
 * afresh each time, as it still grows.
 *
 * @example
 * const quota = createOriginStorageQuota({ getStore: context.getStore });
 * if (!(await quota.admit(origin, snapshotBytes))) passThroughWithNotice();
 */
export function createOriginStorageQuota(options: OriginStorageQuotaOptions): OriginStorageQuota {
  const quotaBytes = options.quotaBytes ?? ORIGIN_STORAGE_QUOTA_BYTES;

  async function sizeOf(store: RunStore, run: AgentRun): Promise<number> {
    if (run.status !== 'running' && run.storedBytes !== undefined) return run.storedBytes;
    const bytes = await measureRunBytes(store, run);
    if (run.status !== 'running') await store.putRun({ ...run, storedBytes: bytes });
    return bytes;
  }

  return {
    quotaBytes,
    async admit(origin, incomingBytes) {
      if (incomingBytes > quotaBytes) return false;
      const store = await options.getStore();
      const runs = await store.listRuns({ origin });
      const sized = await Promise.all(runs.map(async (run) => ({ run, bytes: await sizeOf(store, run) })));
      let total = sized.reduce((sum, entry) => sum + entry.bytes, 0);
      // Oldest first; a running run is never deleted.
      const prunable = sized.filter((entry) => entry.run.status !== 'running').sort((left, right) => left.run.createdAt - right.run.createdAt);
      for (const entry of prunable) {
        if (total + incomingBytes <= quotaBytes) break;
        await store.deleteRun(entry.run.id);
        total -= entry.bytes;
      }
      return total + incomingBytes <= quotaBytes;
    },
  };
}
