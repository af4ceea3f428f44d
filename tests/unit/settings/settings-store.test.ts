import { beforeEach, describe, expect, test, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { deleteDB } from 'idb';
import { PRIVATE_DATABASE_NAME } from '../../../src/settings/private-database';
import { importSettings } from '../../../src/settings/import-export';
import type { Settings } from '../../../src/settings/schema';
import {
  createDefaultSettings,
  loadSettings,
  loadSettingsWithErrors,
  onSettingsChanged,
  saveSettings,
  SETTINGS_STORAGE_KEY,
  updateSettings,
} from '../../../src/settings/settings-store';

beforeEach(async () => {
  fakeBrowser.reset();
  await deleteDB(PRIVATE_DATABASE_NAME);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

describe('settings in browser.storage.local', () => {
  test('with nothing stored, loading gives the defaults', async () => {
    const actual = await loadSettings();

    expect(actual).toEqual({
      version: 1,
      enabled: true,
      connections: [],
      profiles: [],
      sites: [],
      defaults: { rootProfileId: 'root', maxRunningChildren: 3, maxTasksPerRun: 8, maxDepth: 2, awaitTimeoutMs: 120_000, retentionDays: 30, replyDeadlineMs: 0 },
    });
  });

  test('a saved document loads back as it was saved', async () => {
    const document = {
      version: 1 as const,
      connections: [{ id: 'local', baseURL: 'http://127.0.0.1:8080/v1', apiKey: 'k', defaultModel: 'qwen3-8b' }],
      sites: [{ origin: 'http://127.0.0.1:8000', adapter: 'sillytavern' as const }],
    };

    const saved = await saveSettings(document);
    const loaded = await loadSettings();

    expect(loaded).toEqual(saved);
    expect(loaded.connections[0]?.apiKey).toBe('k');
    expect(loaded.sites[0]).toEqual({ origin: 'http://127.0.0.1:8000', enabled: true, adapter: 'sillytavern' });
  });

  test('saving an invalid document throws with the field named and writes nothing', async () => {
    const document = { version: 1 as const, profiles: [{ id: 'a', name: 'A', description: 'd', systemPrompt: '', model: { binding: 'connection' as const, connectionId: 'gone' } }] };

    await expect(saveSettings(document)).rejects.toMatchObject({ code: 'settings-invalid', message: expect.stringContaining('profiles[0].model.connectionId') });
    expect(await fakeBrowser.storage.local.get(SETTINGS_STORAGE_KEY)).toEqual({});
  });

  test('a stored document that fails validation gives the defaults and the reason, never a throw', async () => {
    await fakeBrowser.storage.local.set({ [SETTINGS_STORAGE_KEY]: { version: 1, sites: 'everywhere' } });

    const { settings, errors } = await loadSettingsWithErrors();

    expect(settings).toEqual(createDefaultSettings());
    expect(errors.map((error) => error.path)).toEqual(['sites']);
    expect(await loadSettings()).toEqual(createDefaultSettings());
  });

  test('a stored document from a newer Retinue gives the defaults and says to update', async () => {
    await fakeBrowser.storage.local.set({ [SETTINGS_STORAGE_KEY]: { version: 7 } });

    const { errors } = await loadSettingsWithErrors();

    expect(errors[0]?.message).toContain('made by a newer Retinue');
  });

  test('updates made one after another all land', async () => {
    await Promise.all([
      updateSettings((settings) => ({ ...settings, sites: [...settings.sites, { origin: 'http://127.0.0.1:8000', enabled: true, adapter: 'auto' }] })),
      updateSettings((settings) => ({ ...settings, sites: [...settings.sites, { origin: 'http://localhost:5000', enabled: true, adapter: 'auto' }] })),
    ]);

    expect((await loadSettings()).sites.map((site) => site.origin)).toEqual(['http://127.0.0.1:8000', 'http://localhost:5000']);
  });

  test('listeners hear every change of the stored document, and stop when asked', async () => {
    const heard: Settings[] = [];
    const stop = onSettingsChanged((settings) => heard.push(settings));
    const imported = importSettings(JSON.stringify({ version: 1, enabled: false }));
    if (!imported.ok) throw new Error('the document must import');

    await saveSettings(imported.settings);
    await fakeBrowser.storage.local.set({ unrelated: 1 });
    // Listeners hear the settings with their keys, read back from the private store: a step later.
    await vi.waitFor(() => expect(heard).toHaveLength(1));
    stop();
    await saveSettings(createDefaultSettings());

    expect(heard.map((settings) => settings.enabled)).toEqual([false]);
  });
});
