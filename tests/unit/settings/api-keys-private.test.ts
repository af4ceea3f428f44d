import { deleteDB } from 'idb';
import { beforeEach, expect, test, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { readApiKeys } from '../../../src/settings/api-key-store';
import { exportSettings, importSettings } from '../../../src/settings/import-export';
import { PRIVATE_DATABASE_NAME } from '../../../src/settings/private-database';
import type { Settings } from '../../../src/settings/schema';
import { loadSettings, onSettingsChanged, saveSettings } from '../../../src/settings/settings-store';

beforeEach(async () => {
  fakeBrowser.reset();
  await deleteDB(PRIVATE_DATABASE_NAME);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

const keyed = {
  version: 1 as const,
  connections: [
    { id: 'cloud', label: 'Cloud', baseURL: 'https://api.example.com/v1', apiKey: 'sk-cloud-secret', defaultModel: 'm' },
    { id: 'local', baseURL: 'http://127.0.0.1:8080/v1', apiKey: '', defaultModel: 'qwen' },
  ],
};

/** Everything in storage.local, as a content script could read it. */
async function storageLocalText(): Promise<string> {
  return JSON.stringify(await fakeBrowser.storage.local.get(null));
}

test('saving a keyed connection keeps the key out of storage.local, and loading gives it back', async () => {
  await saveSettings(keyed);

  expect(await storageLocalText()).not.toContain('sk-cloud-secret');
  expect((await loadSettings()).connections.map((connection) => connection.apiKey)).toEqual(['sk-cloud-secret', '']);
  expect(await readApiKeys()).toEqual([{ connectionId: 'cloud', apiKey: 'sk-cloud-secret', origin: 'https://api.example.com' }]);
});

test('a stored document with keys (an older Retinue) has them moved to the private store and removed from storage.local', async () => {
  await fakeBrowser.storage.local.set({ settings: keyed });

  const loaded = await loadSettings();

  expect(loaded.connections[0]?.apiKey).toBe('sk-cloud-secret');
  expect(await storageLocalText()).not.toContain('sk-cloud-secret');
  expect(await readApiKeys()).toEqual([{ connectionId: 'cloud', apiKey: 'sk-cloud-secret', origin: 'https://api.example.com' }]);
  // Loaded again (the document now without keys), the key still comes back.
  expect((await loadSettings()).connections[0]?.apiKey).toBe('sk-cloud-secret');
});

test('a document another context writes while the keys of the one before are being moved is kept, and its keys are moved too', async () => {
  await fakeBrowser.storage.local.set({ settings: keyed });
  // This context reads the keyed document and starts moving its key; meanwhile another context (the
  // options page, a test writing storage.local) writes a newer document, with a key of its own.
  const moving = loadSettings();
  const newer = { ...keyed, sites: [{ origin: 'http://127.0.0.1:8000', enabled: true }] };
  await fakeBrowser.storage.local.set({ settings: newer });
  await moving;

  const stored = (await fakeBrowser.storage.local.get('settings')).settings as Settings;
  expect(stored.sites).toEqual([expect.objectContaining({ origin: 'http://127.0.0.1:8000', enabled: true })]);
  // The newer document's own load (its change event) moves its key.
  expect((await loadSettings()).sites.map((site) => site.origin)).toEqual(['http://127.0.0.1:8000']);
  expect(await storageLocalText()).not.toContain('sk-cloud-secret');
});

test('a key does not follow a connection whose address was changed in storage.local behind the options page', async () => {
  await saveSettings(keyed);
  const stored = (await fakeBrowser.storage.local.get('settings')).settings as Settings;
  const moved = { ...stored, connections: stored.connections.map((connection) => ({ ...connection, baseURL: connection.id === 'cloud' ? 'https://collector.example.net/v1' : connection.baseURL })) };
  await fakeBrowser.storage.local.set({ settings: moved });

  expect((await loadSettings()).connections[0]).toMatchObject({ baseURL: 'https://collector.example.net/v1', apiKey: '' });
});

test('removing a key or a connection removes its stored key', async () => {
  await saveSettings(keyed);
  const loaded = await loadSettings();

  await saveSettings({ ...loaded, connections: loaded.connections.map((connection) => ({ ...connection, apiKey: '' })) });

  expect(await readApiKeys()).toEqual([]);
});

test('export with keys and import with keys go through the private store', async () => {
  await saveSettings(keyed);
  const exported = exportSettings(await loadSettings(), { includeApiKeys: true });
  expect(exported).toContain('sk-cloud-secret');
  await saveSettings({ version: 1 });
  expect(await readApiKeys()).toEqual([]);

  const imported = importSettings(exported, await loadSettings());
  if (!imported.ok) throw new Error('the exported document must import');
  await saveSettings(imported.settings);

  expect((await loadSettings()).connections[0]?.apiKey).toBe('sk-cloud-secret');
  expect(await storageLocalText()).not.toContain('sk-cloud-secret');
});

test('an import without keys keeps the stored ones', async () => {
  await saveSettings(keyed);
  const withoutKeys = importSettings(exportSettings(await loadSettings(), { includeApiKeys: false }), await loadSettings());
  if (!withoutKeys.ok) throw new Error('the exported document must import');
  await saveSettings(withoutKeys.settings);

  expect((await loadSettings()).connections[0]?.apiKey).toBe('sk-cloud-secret');
});

test('listeners hear a change of a key alone, with the key', async () => {
  await saveSettings(keyed);
  const heard: string[] = [];
  const stop = onSettingsChanged((settings) => heard.push(settings.connections[0]?.apiKey ?? 'none'));
  const loaded = await loadSettings();

  await saveSettings({ ...loaded, connections: loaded.connections.map((connection) => (connection.id === 'cloud' ? { ...connection, apiKey: 'sk-new' } : connection)) });
  await vi.waitFor(() => expect(heard).toEqual(['sk-new']));
  stop();
});
