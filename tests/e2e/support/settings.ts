import type { SettingsInput } from '../../../src/settings/schema';
import { evaluateIn, waitUntil, type EvaluatingHandle } from './evaluating-handle';

/**
 * A page of the extension (options, side panel) in Chromium or Firefox, or Chromium's service
 * worker: where `browser.storage` and the extension's IndexedDB are reachable.
 */
export type ExtensionContextHandle = EvaluatingHandle;

/** The slice of the extension API these helpers use (`browser` in Firefox, `chrome` in Chromium). */
interface StorageApi {
  storage: { local: { get(key: string): Promise<Record<string, unknown>>; set(items: Record<string, unknown>): Promise<void> } };
}

/** The name of the run store's IndexedDB database (src/store/schema.ts DEFAULT_RUN_STORE_NAME). */
export const RUN_STORE_DATABASE = 'retinue-runs';

/**
 * Replaces the settings document (`browser.storage.local` key `settings`) from an extension page:
 * what the background sees is a storage change like any other. The document is written as given;
 * the extension validates it when it reads it. A document that carries API keys (as an older
 * Retinue's did; the options page's import takes them out first) is rewritten without them by every
 * context that loads it (settings-store.ts): this waits for that, so the next write of a test is not
 * raced by the move of this one's keys.
 *
 * @example
 * const options = await browser.openExtensionPage('options.html');
 * await writeSettings(options, { version: 1, sites: [{ origin: fixtures.origins.enabled }] });
 */
export async function writeSettings(handle: ExtensionContextHandle, document: SettingsInput | Record<string, unknown>): Promise<void> {
  await writeStorage(handle, { settings: document });
  if (!carriesApiKeys(document)) return;
  await waitUntil(async () => !carriesApiKeys(await readStorage(handle, 'settings')) || undefined, { description: 'Retinue to move the API keys out of the written settings' });
}

function carriesApiKeys(document: unknown): boolean {
  const connections = (document as { connections?: unknown } | undefined)?.connections;
  return Array.isArray(connections) && connections.some((connection) => typeof (connection as { apiKey?: unknown }).apiKey === 'string' && (connection as { apiKey: string }).apiKey !== '');
}

/**
 * Sets keys of `browser.storage.local` from an extension page (or Chromium's service worker).
 *
 * @example
 * await writeStorage(options, { settings: { version: 1 } });
 */
export async function writeStorage(handle: ExtensionContextHandle, items: Record<string, unknown>): Promise<void> {
  await evaluateIn(handle, async (values: Record<string, unknown>) => {
    const scope = globalThis as { browser?: StorageApi; chrome?: StorageApi };
    const api = (scope.browser ?? scope.chrome)!;
    await api.storage.local.set(values);
  }, items);
}

/**
 * Reads one key of `browser.storage.local` from an extension page (undefined when absent).
 *
 * @example
 * const settings = await readStorage(options, 'settings');
 */
export async function readStorage(handle: ExtensionContextHandle, key: string): Promise<unknown> {
  return evaluateIn(handle, async (wanted: string) => {
    const scope = globalThis as { browser?: StorageApi; chrome?: StorageApi };
    const api = (scope.browser ?? scope.chrome)!;
    const items = await api.storage.local.get(wanted);
    return items[wanted];
  }, key);
}

/**
 * Every record of one object store of an IndexedDB database of the extension, read from an
 * extension page. A database that does not exist yet reads as empty and is not created (creating it
 * here would get in the way of the extension's own schema upgrade).
 *
 * @example
 * const runs = await readIndexedDb(options, { store: 'runs' });
 */
export async function readIndexedDb(
  handle: ExtensionContextHandle,
  options: { store: string; database?: string },
): Promise<unknown[]> {
  return evaluateIn(handle, 
    async ({ database, store }: { database: string; store: string }) => {
      const known = await indexedDB.databases();
      if (!known.some((entry) => entry.name === database)) return [];
      const connection = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(database);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error ?? new Error(`could not open ${database}`));
      });
      try {
        if (!connection.objectStoreNames.contains(store)) return [];
        return await new Promise<unknown[]>((resolve, reject) => {
          const request = connection.transaction(store, 'readonly').objectStore(store).getAll();
          request.onsuccess = () => resolve(request.result as unknown[]);
          request.onerror = () => reject(request.error ?? new Error(`could not read ${store}`));
        });
      } finally {
        connection.close();
      }
    },
    { database: options.database ?? RUN_STORE_DATABASE, store: options.store },
  );
}

/** Runs and tasks as the run store keeps them, for assertions. */
export interface RunStoreSnapshot {
  /** Newest first. */
  runs: Array<Record<string, unknown>>;
  /** In creation order (by `createdAt`, then the order the store first saw them). */
  tasks: Array<Record<string, unknown>>;
}

const numberOf = (value: unknown) => (typeof value === 'number' ? value : 0);

/**
 * The runs and tasks in the run store, read from an extension page.
 *
 * @example
 * const { runs, tasks } = await readRunStore(options);
 * expect(tasks.map((task) => task.targetProfileId)).toEqual(['continuity-checker', 'scene-critic']);
 */
export async function readRunStore(handle: ExtensionContextHandle, database = RUN_STORE_DATABASE): Promise<RunStoreSnapshot> {
  const [runs, tasks] = (await Promise.all([
    readIndexedDb(handle, { database, store: 'runs' }),
    readIndexedDb(handle, { database, store: 'tasks' }),
  ])) as [RunStoreSnapshot['runs'], RunStoreSnapshot['tasks']];
  runs.sort((a, b) => numberOf(b.createdAt) - numberOf(a.createdAt));
  tasks.sort((a, b) => numberOf(a.createdAt) - numberOf(b.createdAt) || numberOf(a.storeOrder) - numberOf(b.storeOrder));
  return { runs, tasks };
}
