import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { z } from 'zod';
import { lazySchema } from '../lazy-schema';

/**
 * The extension's private database: what a content script must never read (API keys) lives here, on
 * the extension's own origin, apart from `browser.storage.local` (which content scripts can read) and
 * apart from the run store.
 *
 * Version history (add a line and a step in `upgradePrivateDatabase` for every change):
 * - 1 (2026-12): object store `apiKeys`, one record per connection id: the key and the origin it
 *   was saved for; `connectionLoans`, the user's decision per [site origin, connection id] on lending
 *   a keyed connection to that site; `keyedSpend`, tokens keyed connections spent per [site origin, day].
 */
export const PRIVATE_DATABASE_VERSION = 1;

/** The database name used unless a test asks for its own. */
export const PRIVATE_DATABASE_NAME = 'retinue-private';

/** One connection's API key, bound to the origin of the base URL it was saved with. */
export const storedApiKeySchema = lazySchema(() => z.strictObject({
  connectionId: z.string().min(1).max(64),
  apiKey: z.string().min(1).max(4_096),
  origin: z.string().min(1).max(300),
}));
export type StoredApiKey = z.infer<typeof storedApiKeySchema>;

/** Whether the user lent a keyed connection to a site (`allowed`) or took it back (`refused`). */
export const connectionLoanSchema = lazySchema(() => z.strictObject({
  origin: z.string().min(1).max(300),
  connectionId: z.string().min(1).max(64),
  decision: z.enum(['allowed', 'refused']),
  decidedAt: z.number().int().min(0),
}));
export type ConnectionLoan = z.infer<typeof connectionLoanSchema>;

/** Tokens (in and out) the keyed connections spent for one site on one day (`YYYY-MM-DD`, the browser's local day). */
export const keyedSpendSchema = lazySchema(() => z.strictObject({
  origin: z.string().min(1).max(300),
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  tokens: z.number().int().min(0),
}));
export type KeyedSpend = z.infer<typeof keyedSpendSchema>;

export interface PrivateDatabaseSchema extends DBSchema {
  apiKeys: { key: string; value: StoredApiKey };
  connectionLoans: { key: [string, string]; value: ConnectionLoan };
  keyedSpend: { key: [string, string]; value: KeyedSpend };
}

function upgradePrivateDatabase(database: IDBPDatabase<PrivateDatabaseSchema>, oldVersion: number): void {
  if (oldVersion < 1) {
    database.createObjectStore('apiKeys', { keyPath: 'connectionId' });
    database.createObjectStore('connectionLoans', { keyPath: ['origin', 'connectionId'] });
    database.createObjectStore('keyedSpend', { keyPath: ['origin', 'day'] });
  }
}

/**
 * Opens (creating or upgrading) the private database. Callers close it when done: settings are read
 * and written seldom, and an open connection would block the next version's upgrade.
 */
export function openPrivateDatabase(name: string = PRIVATE_DATABASE_NAME): Promise<IDBPDatabase<PrivateDatabaseSchema>> {
  return openDB<PrivateDatabaseSchema>(name, PRIVATE_DATABASE_VERSION, {
    upgrade: (database, oldVersion) => upgradePrivateDatabase(database, oldVersion),
    blocking: (_current, _next, event) => (event.target as IDBDatabase).close(),
  });
}

let kept: Promise<IDBPDatabase<PrivateDatabaseSchema>> | undefined;

/**
 * The private database, opened once and kept open for this context's life, for reads made on every
 * chat turn (a site's lending): opening costs more than the read. It closes when a newer version
 * asks for it (an update) and is opened again on the next use; never close it yourself.
 */
export function keptPrivateDatabase(): Promise<IDBPDatabase<PrivateDatabaseSchema>> {
  if (kept) return kept;
  const forget = () => {
    if (kept === opening) kept = undefined;
  };
  const opening = openDB<PrivateDatabaseSchema>(PRIVATE_DATABASE_NAME, PRIVATE_DATABASE_VERSION, {
    upgrade: (database, oldVersion) => upgradePrivateDatabase(database, oldVersion),
    blocking: (_current, _next, event) => {
      forget();
      (event.target as IDBDatabase).close();
    },
    terminated: forget,
  });
  kept = opening;
  opening.catch(forget);
  return opening;
}
