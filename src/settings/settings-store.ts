import { browser } from 'wxt/browser';
import { apiKeysOf, putApiKeys, readApiKeys, replaceApiKeys, withApiKeys, withoutApiKeys } from './api-key-store';
import { validateSettingsDocument } from './import-export';
import { SETTINGS_VERSION, settingsSchema, type Settings, type SettingsInput } from './schema';
import { describeSettingsIssues, settingsInvalidError, type SettingsIssue } from './settings-errors';

/**
 * The `browser.storage.local` key that holds the settings document, without API keys: content
 * scripts can read storage.local, so keys live in the private database (api-key-store.ts).
 */
export const SETTINGS_STORAGE_KEY = 'settings';

/** Changes with every save, so listeners hear a save that changed a key alone (the document stays the same). */
export const SETTINGS_REVISION_STORAGE_KEY = 'settingsRevision';

/** The settings every part starts from: no connections, no sites, built-in profiles only. */
export function createDefaultSettings(): Settings {
  return settingsSchema.parse({ version: SETTINGS_VERSION });
}

export interface LoadedSettings {
  settings: Settings;
  /** Why the stored document was not used (then `settings` are the defaults); empty when it was. */
  errors: SettingsIssue[];
}

/**
 * Reads a stored value as settings: absent gives the defaults; a document that fails validation gives
 * the defaults and the reasons, never a throw, so a bad document cannot stop the extension.
 */
export function settingsFromStoredValue(value: unknown): LoadedSettings {
  if (value === undefined || value === null) return { settings: createDefaultSettings(), errors: [] };
  const result = validateSettingsDocument(value);
  if (result.ok) return { settings: result.settings, errors: [] };
  return { settings: createDefaultSettings(), errors: result.errors };
}

/**
 * Loads the settings with the reasons a stored document was set aside (for the options page); each
 * connection gets its key from the private database. Keys still found in the stored document (an
 * older Retinue, or a test writing storage.local) are moved there and removed from the document.
 */
export async function loadSettingsWithErrors(): Promise<LoadedSettings> {
  const stored = await browser.storage.local.get(SETTINGS_STORAGE_KEY);
  const loaded = settingsFromStoredValue(stored[SETTINGS_STORAGE_KEY]);
  if (loaded.errors.length > 0) return loaded;
  const keysInDocument = apiKeysOf(loaded.settings.connections);
  if (keysInDocument.length > 0) {
    await putApiKeys(keysInDocument);
    await moveKeysOutOfDocument(stored[SETTINGS_STORAGE_KEY], loaded.settings);
  }
  const connections = withApiKeys(withoutApiKeys(loaded.settings.connections), await readApiKeys());
  return { settings: { ...loaded.settings, connections }, errors: [] };
}

/**
 * Writes the document read (`read`, parsed as `settings`) back without its keys, unless another
 * context stored a newer one meanwhile: storage.local has no transactions, and every context that
 * loads moves keys, so writing the older document back would undo that write (a profile or site it
 * added would be lost). The newer document's keys are moved by its own load, on its change event.
 */
async function moveKeysOutOfDocument(read: unknown, settings: Settings): Promise<void> {
  const current = await browser.storage.local.get(SETTINGS_STORAGE_KEY);
  if (JSON.stringify(current[SETTINGS_STORAGE_KEY]) !== JSON.stringify(read)) return;
  await writeDocumentWithoutKeys(settings);
}

/** Stores the document with every key emptied, and a new revision so that every context reloads. */
function writeDocumentWithoutKeys(settings: Settings): Promise<void> {
  return browser.storage.local.set({
    [SETTINGS_STORAGE_KEY]: { ...settings, connections: withoutApiKeys(settings.connections) },
    [SETTINGS_REVISION_STORAGE_KEY]: crypto.randomUUID(),
  });
}

/** Stores the keys first, then the document: a listener that reloads on the document's change finds the keys. */
async function storeSettings(settings: Settings): Promise<void> {
  await replaceApiKeys(apiKeysOf(settings.connections));
  await writeDocumentWithoutKeys(settings);
}

/**
 * Loads the settings document; absent or invalid gives the defaults (an invalid one is reported on
 * the console; `loadSettingsWithErrors` returns the reasons).
 */
export async function loadSettings(): Promise<Settings> {
  const { settings, errors } = await loadSettingsWithErrors();
  if (errors.length > 0) reportSetAside(errors);
  return settings;
}

let pendingWrite: Promise<unknown> = Promise.resolve();

/**
 * Validates and stores a whole settings document (defaults filled in). Throws a ConfigurationError
 * (`settings-invalid`) naming each bad field; nothing is written then.
 */
export async function saveSettings(settings: SettingsInput): Promise<Settings> {
  const result = validateSettingsDocument(settings);
  if (!result.ok) throw settingsInvalidError(result.errors);
  const write = pendingWrite.then(() => storeSettings(result.settings));
  pendingWrite = write.catch(() => undefined);
  await write;
  return result.settings;
}

/**
 * Reads, changes and saves the settings as one step; changes made through this function in one
 * extension context never overwrite each other.
 *
 * @example
 * await updateSettings((settings) => ({ ...settings, enabled: false }));
 */
export async function updateSettings(change: (settings: Settings) => Settings): Promise<Settings> {
  const update = pendingWrite.then(async () => {
    const next = change(await loadSettings());
    const result = validateSettingsDocument(next);
    if (!result.ok) throw settingsInvalidError(result.errors);
    await storeSettings(result.settings);
    return result.settings;
  });
  pendingWrite = update.catch(() => undefined);
  return update;
}

/**
 * Calls `listener` with the new settings (keys included) whenever the stored document or a key
 * changes, whoever changed it, in the order of the changes. Returns a function that stops listening.
 */
export function onSettingsChanged(listener: (settings: Settings, errors: SettingsIssue[]) => void): () => void {
  let stopped = false;
  let reloads: Promise<void> = Promise.resolve();
  const handle = (changes: Record<string, { newValue?: unknown }>, areaName: string): void => {
    if (areaName !== 'local' || !(SETTINGS_STORAGE_KEY in changes || SETTINGS_REVISION_STORAGE_KEY in changes)) return;
    reloads = reloads.then(async () => {
      const { settings, errors } = await loadSettingsWithErrors();
      if (errors.length > 0) reportSetAside(errors);
      if (!stopped) listener(settings, errors);
    }).catch((error: unknown) => console.error('Retinue: the changed settings could not be read.', error));
  };
  browser.storage.onChanged.addListener(handle);
  return () => {
    stopped = true;
    browser.storage.onChanged.removeListener(handle);
  };
}

/**
 * Calls `listener` at once, in the same event, when the stored settings change: before
 * `onSettingsChanged`'s listener, which waits for the keys to be read. A cache drops its copy here, so
 * a read right after a save never gets the old settings.
 */
export function onSettingsStale(listener: () => void): () => void {
  const handle = (changes: Record<string, unknown>, areaName: string): void => {
    if (areaName === 'local' && (SETTINGS_STORAGE_KEY in changes || SETTINGS_REVISION_STORAGE_KEY in changes)) listener();
  };
  browser.storage.onChanged.addListener(handle);
  return () => browser.storage.onChanged.removeListener(handle);
}

function reportSetAside(errors: readonly SettingsIssue[]): void {
  console.warn(`Retinue: the stored settings are not valid, so the defaults are used until they are fixed:\n${describeSettingsIssues(errors)}`);
}
