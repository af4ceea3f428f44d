import { randomBytes } from 'node:crypto';
import { readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import type { IDBPDatabase } from 'idb';
import { z } from 'zod';
import { openRunStoreDatabase } from '../store/open-database';
import { RUN_STORE_VERSION } from '../store/schema';
import { RunnerUsageError } from './runner-arguments';

/**
 * `--store FILE`: the runner's in-memory run store kept between runner calls, so a second call with
 * the same `--conversation` finds the first call's runs (and the helper results that came after its
 * reply). The file is a JSON dump of every object store of the database, written at the end of a
 * call and loaded at the start of the next; a missing file is an empty store.
 */

const STORE_FILE_FORMAT = 'retinue-runner-store';
/** Bigger than any honest run history of a few calls; a file past it is not a store dump. */
export const STORE_FILE_MAX_BYTES = 64 * 1024 * 1024;

const storeFileSchema = z.strictObject({
  format: z.literal(STORE_FILE_FORMAT),
  version: z.number().int().min(1),
  stores: z.record(z.string().min(1).max(100), z.array(z.unknown()).max(1_000_000)),
});
type StoreFile = z.infer<typeof storeFileSchema>;

// The dump copies records whatever their object store; only names known to the open database count.
type AnyDatabase = IDBPDatabase<unknown>;

async function readStoreFile(path: string): Promise<StoreFile | undefined> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw new RunnerUsageError(`Cannot read the store file '${path}' (${(error as { code?: string }).code ?? String(error)}).`);
  }
  if (size > STORE_FILE_MAX_BYTES) {
    throw new RunnerUsageError(`The store file '${path}' is ${size} bytes, more than the ${STORE_FILE_MAX_BYTES} a runner store may be: name a new file with --store.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new RunnerUsageError(`The store file '${path}' is not JSON (${error instanceof Error ? error.message : String(error)}): name a new file with --store, or the file a runner wrote.`);
  }
  const result = storeFileSchema.safeParse(parsed);
  if (!result.success) {
    throw new RunnerUsageError(`The store file '${path}' is not a runner store (${result.error.issues[0]?.message ?? 'unknown shape'}): name a new file with --store, or the file a runner wrote.`);
  }
  if (result.data.version !== RUN_STORE_VERSION) {
    throw new RunnerUsageError(
      `The store file '${path}' holds run store version ${result.data.version}; this runner uses version ${RUN_STORE_VERSION}. Start a new file with --store.`,
    );
  }
  return result.data;
}

/**
 * Loads the dump at `path` (if there is one) into the database `name` of `factory`, before the run
 * store opens it. Throws RunnerUsageError (exit 2) when the file is not a dump of this store version.
 */
export async function loadRunnerStoreFile(path: string, factory: IDBFactory, name: string): Promise<void> {
  const file = await readStoreFile(path);
  if (!file) return;
  const database = (await openRunStoreDatabase(factory, name)) as unknown as AnyDatabase;
  try {
    const names = Object.keys(file.stores);
    const unknown = names.filter((storeName) => !database.objectStoreNames.contains(storeName));
    if (unknown.length > 0) throw new RunnerUsageError(`The store file '${path}' has object stores this runner does not know (${unknown.join(', ')}). Start a new file with --store.`);
    if (names.length === 0) return;
    const transaction = database.transaction(names, 'readwrite');
    for (const storeName of names) {
      const objectStore = transaction.objectStore(storeName);
      for (const record of file.stores[storeName] ?? []) void objectStore.put(record);
    }
    await transaction.done.catch((error: unknown) => {
      throw new RunnerUsageError(`The store file '${path}' has records the store refuses (${error instanceof Error ? error.message : String(error)}). Start a new file with --store.`);
    });
  } finally {
    database.close();
  }
}

/**
 * Writes every record of the database `name` to `path`, through a temporary file beside it (so a
 * crash leaves the old dump). The dump holds whole chats and results: the temporary file has a name
 * no one can guess, is created exclusively (never through a file or link someone put there) and is
 * readable by its owner only (0600), and the rename keeps that mode.
 */
export async function saveRunnerStoreFile(path: string, factory: IDBFactory, name: string): Promise<void> {
  const database = (await openRunStoreDatabase(factory, name)) as unknown as AnyDatabase;
  const stores: Record<string, unknown[]> = {};
  try {
    for (const storeName of Array.from(database.objectStoreNames)) stores[storeName] = await database.getAll(storeName);
  } finally {
    database.close();
  }
  const dump: StoreFile = { format: STORE_FILE_FORMAT, version: RUN_STORE_VERSION, stores };
  const temporary = `${path}.${randomBytes(12).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, JSON.stringify(dump), { encoding: 'utf8', mode: 0o600, flag: 'wx' });
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}
