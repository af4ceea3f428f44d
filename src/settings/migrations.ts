import { SETTINGS_VERSION } from './schema';
import { issueAt, type SettingsIssue } from './settings-errors';

/** A step that turns a document of version N into one of version N + 1 (JSON in, JSON out). */
export type SettingsMigration = (document: Record<string, unknown>) => Record<string, unknown>;

/**
 * Migrations by the version they start from: `settingsMigrations[1]` turns a version-1 document into
 * version 2. Empty while version 1 is the only version; add a step here with every new version and a
 * fixture of the old version to the tests.
 */
export const settingsMigrations: Readonly<Record<number, SettingsMigration>> = {};

export type MigrationResult =
  | { ok: true; document: Record<string, unknown> }
  | { ok: false; errors: SettingsIssue[] };

/**
 * Brings a parsed settings document up to {@link SETTINGS_VERSION}, one step at a time. Refuses a
 * document without a usable `version` and one made by a newer Retinue.
 */
export function migrateSettingsDocument(
  value: unknown,
  options: { targetVersion?: number; migrations?: Readonly<Record<number, SettingsMigration>> } = {},
): MigrationResult {
  const targetVersion = options.targetVersion ?? SETTINGS_VERSION;
  const migrations = options.migrations ?? settingsMigrations;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, errors: [issueAt([], 'must be a JSON object with "version", "connections", "profiles", "sites" and "defaults"; see docs/settings.md.')] };
  }
  let document = value as Record<string, unknown>;
  const version = document.version;
  if (version === undefined) {
    return { ok: false, errors: [issueAt(['version'], `is missing; add "version": ${targetVersion} at the top of the document.`)] };
  }
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    return { ok: false, errors: [issueAt(['version'], `${JSON.stringify(version)} is not a settings version; versions are whole numbers from 1 (this Retinue writes ${targetVersion}).`)] };
  }
  if (version > targetVersion) {
    return {
      ok: false,
      errors: [issueAt(['version'], `the document is version ${version}, made by a newer Retinue; this one reads up to version ${targetVersion}. Update the extension, then import again.`)],
    };
  }
  for (let from = version; from < targetVersion; from += 1) {
    const step = migrations[from];
    if (!step) {
      return { ok: false, errors: [issueAt(['version'], `no migration from version ${from} to ${from + 1} exists; this is a defect in Retinue, please report it.`)] };
    }
    document = { ...step(document), version: from + 1 };
  }
  return { ok: true, document };
}
