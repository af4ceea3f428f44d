import { originOfBaseUrl } from './key-binding';
import { openPrivateDatabase, storedApiKeySchema, type StoredApiKey } from './private-database';
import type { Connection } from './schema';

/**
 * API keys, kept in the extension's private database instead of the settings document. The settings
 * store puts them back into the connections it loads, and takes them out of the documents it saves.
 */

/** The keys of a document's connections: one per connection that has one, bound to its base URL's origin. */
export function apiKeysOf(connections: readonly Connection[]): StoredApiKey[] {
  return connections.flatMap((connection) => {
    const origin = originOfBaseUrl(connection.baseURL);
    return connection.apiKey && origin ? [{ connectionId: connection.id, apiKey: connection.apiKey, origin }] : [];
  });
}

/** The connections as the settings document keeps them: every `apiKey` empty. */
export function withoutApiKeys(connections: readonly Connection[]): Connection[] {
  return connections.map((connection) => ({ ...connection, apiKey: '' }));
}

/**
 * Each connection with its stored key, when the key was saved for the origin the connection points
 * to now. A key never follows a connection whose address was changed behind the options page's back
 * (storage.local can be written by others than the options page).
 */
export function withApiKeys(connections: readonly Connection[], keys: readonly StoredApiKey[]): Connection[] {
  const byId = new Map(keys.map((key) => [key.connectionId, key]));
  return connections.map((connection) => {
    const key = byId.get(connection.id);
    return key && key.origin === originOfBaseUrl(connection.baseURL) ? { ...connection, apiKey: key.apiKey } : connection;
  });
}

/** Every stored key that reads as one (a malformed record is skipped, never a throw). */
export async function readApiKeys(databaseName?: string): Promise<StoredApiKey[]> {
  const database = await openPrivateDatabase(databaseName);
  try {
    const records = await database.getAll('apiKeys');
    return records.flatMap((record) => {
      const parsed = storedApiKeySchema.safeParse(record);
      return parsed.success ? [parsed.data] : [];
    });
  } finally {
    database.close();
  }
}

/** Makes the stored keys exactly `keys`, in one transaction: keys of removed or emptied connections go. */
export async function replaceApiKeys(keys: readonly StoredApiKey[], databaseName?: string): Promise<void> {
  const database = await openPrivateDatabase(databaseName);
  try {
    const transaction = database.transaction('apiKeys', 'readwrite');
    await transaction.store.clear();
    for (const key of keys) await transaction.store.put(storedApiKeySchema.parse(key));
    await transaction.done;
  } finally {
    database.close();
  }
}

/** Adds or replaces the given keys, leaving the others (the migration of keys found in storage.local). */
export async function putApiKeys(keys: readonly StoredApiKey[], databaseName?: string): Promise<void> {
  const database = await openPrivateDatabase(databaseName);
  try {
    const transaction = database.transaction('apiKeys', 'readwrite');
    for (const key of keys) await transaction.store.put(storedApiKeySchema.parse(key));
    await transaction.done;
  } finally {
    database.close();
  }
}
