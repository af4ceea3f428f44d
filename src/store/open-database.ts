import { wrap, type IDBPDatabase } from 'idb';
import { migrateRunStore } from './migrations';
import { RUN_STORE_VERSION, type RunStoreSchema } from './schema';

/**
 * Opens (creating or upgrading) the run store database. This is idb's `openDB` with the factory
 * passed in, so the store also works where `indexedDB` is not a global (a Node runner handing in
 * fake-indexeddb's factory).
 */
export function openRunStoreDatabase(factory: IDBFactory, name: string): Promise<IDBPDatabase<RunStoreSchema>> {
  const request = factory.open(name, RUN_STORE_VERSION);
  request.addEventListener('upgradeneeded', (event) => {
    const transaction = request.transaction;
    if (!transaction) return;
    migrateRunStore(wrap(request.result) as IDBPDatabase<RunStoreSchema>, event.oldVersion, wrap(transaction) as never).catch((error: unknown) => {
      // A failed step leaves the database as it was: the open request then fails with the abort.
      console.error('The run store could not be upgraded', error);
      try {
        transaction.abort();
      } catch {
        // The upgrade transaction already ended.
      }
    });
  });
  const opened = wrap(request) as unknown as Promise<IDBPDatabase<RunStoreSchema>>;
  void opened.then((database) => {
    // A newer version of the extension (another tab or the updated service worker) wants to
    // upgrade: step aside instead of blocking it forever.
    database.addEventListener('versionchange', () => database.close());
  }, () => undefined);
  return opened;
}
