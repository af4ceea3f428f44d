import { describe, expect, test } from 'vitest';
import { migrateSettingsDocument, settingsMigrations } from '../../../src/settings/migrations';
import { SETTINGS_VERSION } from '../../../src/settings/schema';

describe('settings migrations', () => {
  test('a document of the current version passes unchanged', () => {
    const document = { version: SETTINGS_VERSION, sites: [] };

    expect(migrateSettingsDocument(document)).toEqual({ ok: true, document });
  });

  test('a document from a future version is refused and nothing is migrated', () => {
    const actual = migrateSettingsDocument({ version: SETTINGS_VERSION + 1 });

    expect(actual.ok).toBe(false);
    expect(!actual.ok && actual.errors[0]?.message).toContain('made by a newer Retinue');
  });

  test('there is a migration for every version before the current one', () => {
    for (let version = 1; version < SETTINGS_VERSION; version += 1) {
      expect(settingsMigrations[version], `a migration from version ${version}`).toBeTypeOf('function');
    }
  });

  test('an old document goes through each step in order up to the target version', () => {
    const steps = {
      1: (document: Record<string, unknown>) => ({ ...document, renamed: document.old, old: undefined }),
      2: (document: Record<string, unknown>) => ({ ...document, trail: [...((document.trail as string[]) ?? []), 'two'] }),
    };

    const actual = migrateSettingsDocument({ version: 1, old: 'value' }, { targetVersion: 3, migrations: steps });

    expect(actual).toEqual({ ok: true, document: { version: 3, renamed: 'value', old: undefined, trail: ['two'] } });
  });

  test('a missing step is reported instead of a half-migrated document', () => {
    const actual = migrateSettingsDocument({ version: 1 }, { targetVersion: 2, migrations: {} });

    expect(!actual.ok && actual.errors[0]?.message).toContain('no migration from version 1 to 2');
  });

  test.each([[0], [1.5], ['1'], [null]])('version %j is refused as not a settings version', (version) => {
    const actual = migrateSettingsDocument({ version });

    expect(!actual.ok && actual.errors[0]?.path).toBe('version');
  });
});
