import { expect } from 'vitest';
import { SECRET_KEY } from './chat-turn-scenarios';
import { evaluateIn, waitUntil, type EvaluatingHandle } from './support/evaluating-handle';
import { readIndexedDb } from './support/settings';

/**
 * Keys out of `storage.local` in a browser: the scenario stores a settings document with a keyed
 * connection the way an older Retinue did (in `storage.local`, which content scripts can read); the
 * background moves the key to the extension's private IndexedDB database and writes the document back
 * without it. Shared by the Chromium and Firefox files.
 */

/** Everything in `browser.storage.local`, as any content script of the extension could read it. */
async function readAllStorageLocal(handle: EvaluatingHandle): Promise<Record<string, unknown>> {
  return evaluateIn(handle, async () => {
    const scope = globalThis as { browser?: { storage: { local: { get(keys: null): Promise<Record<string, unknown>> } } }; chrome?: { storage: { local: { get(keys: null): Promise<Record<string, unknown>> } } } };
    return (scope.browser ?? scope.chrome)!.storage.local.get(null);
  }, undefined);
}

export async function expectKeyOnlyInPrivateDatabase(options: EvaluatingHandle): Promise<void> {
  const stored = await waitUntil(
    async () => {
      const all = await readAllStorageLocal(options);
      return 'settings' in all && !JSON.stringify(all).includes(SECRET_KEY) ? all : undefined;
    },
    { description: 'the API key to leave storage.local' },
  );
  expect((stored.settings as { connections: Array<{ id: string; apiKey: string }> }).connections).toEqual([expect.objectContaining({ id: 'spare', apiKey: '' })]);
  const keys = await readIndexedDb(options, { database: 'retinue-private', store: 'apiKeys' });
  expect(keys).toEqual([expect.objectContaining({ connectionId: 'spare', apiKey: SECRET_KEY })]);
}
