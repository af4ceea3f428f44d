import { keyMayStay } from './key-binding';
import { checkProfileReferences, checkSettingsReferences, knownAgentIds } from './document-checks';
import { parseJsonText } from './json-text';
import { migrateSettingsDocument } from './migrations';
import { profileSchema, settingsSchema, type AgentProfile, type Settings } from './schema';
import { issuesFromZod, type SettingsIssue } from './settings-errors';

export type SettingsImportResult =
  | {
      ok: true;
      settings: Settings;
      /** Connections (by label, else id) whose stored key was dropped because their address moved to another origin. */
      keysDropped?: string[];
    }
  | { ok: false; errors: SettingsIssue[] };
export type ProfileImportResult =
  | { ok: true; profile: AgentProfile; settings: Settings }
  | { ok: false; errors: SettingsIssue[] };

/**
 * Reads a settings document from JSON text, as the options page's import and the e2e tests do.
 * Import replaces the document; a connection given without `apiKey` keeps the key that `current`
 * holds for the same connection id only while its base URL keeps its origin (a key never follows a
 * connection to a new address; `keysDropped` names those that lost it). Nothing is stored: save the
 * result with `saveSettings`.
 *
 * @example
 * const result = importSettings(text, await loadSettings());
 * if (result.ok) await saveSettings(result.settings);
 * else showErrors(result.errors.map((error) => error.message));
 */
export function importSettings(jsonText: string, current?: Settings): SettingsImportResult {
  const parsed = parseJsonText(jsonText);
  if (!parsed.ok) return { ok: false, errors: [parsed.error] };
  return validateSettingsDocument(parsed.value, current);
}

/**
 * Validates a parsed settings document of any known version: migrates it, checks its shape, then its
 * ids and references. `current` supplies stored API keys for connections given without one.
 */
export function validateSettingsDocument(value: unknown, current?: Settings): SettingsImportResult {
  const migrated = migrateSettingsDocument(value);
  if (!migrated.ok) return migrated;
  const { document, keysDropped } = current ? keepStoredApiKeys(migrated.document, current) : { document: migrated.document, keysDropped: [] };
  const result = settingsSchema.safeParse(document);
  if (!result.success) {
    return { ok: false, errors: issuesFromZod(result.error.issues, { input: document, schema: settingsSchema }) };
  }
  const referenceIssues = checkSettingsReferences(result.data);
  if (referenceIssues.length > 0) return { ok: false, errors: referenceIssues };
  return keysDropped.length > 0 ? { ok: true, settings: result.data, keysDropped } : { ok: true, settings: result.data };
}

/** The document as exported: every field written out; API keys left out unless asked for. */
export function settingsForExport(settings: Settings, options: { includeApiKeys: boolean }): Record<string, unknown> {
  const copy = structuredClone(settings) as Settings;
  return {
    ...copy,
    connections: copy.connections.map((connection) => {
      if (options.includeApiKeys) return connection;
      const { apiKey: _leftOut, ...withoutKey } = connection;
      return withoutKey;
    }),
  };
}

/**
 * The settings document as JSON text for a file. Without `includeApiKeys` every connection's
 * `apiKey` is left out, and importing the file again keeps the keys already stored.
 */
export function exportSettings(settings: Settings, options: { includeApiKeys: boolean }): string {
  return `${JSON.stringify(settingsForExport(settings, options), null, 2)}\n`;
}

/** One profile as JSON text, to share or to start a custom agent from (built-ins too). */
export function exportProfile(profile: AgentProfile): string {
  return `${JSON.stringify(profile, null, 2)}\n`;
}

/**
 * Reads one profile from JSON text and puts it into `current`: it replaces the document profile of
 * the same id, or is added (a built-in's id makes it an override). Its connection and allowed agents
 * must exist in `current`. Paths in errors are relative to the profile (`model.binding`).
 */
export function importProfile(jsonText: string, current: Settings): ProfileImportResult {
  const parsed = parseJsonText(jsonText);
  if (!parsed.ok) return { ok: false, errors: [parsed.error] };
  const result = profileSchema.safeParse(parsed.value);
  if (!result.success) {
    return { ok: false, errors: issuesFromZod(result.error.issues, { input: parsed.value, schema: profileSchema }) };
  }
  const profile = result.data;
  const referenceIssues = checkProfileReferences(profile, {
    connectionIds: current.connections.map((connection) => connection.id),
    agentIds: [...knownAgentIds(current), profile.id],
    path: [],
  });
  if (referenceIssues.length > 0) return { ok: false, errors: referenceIssues };
  const replaced = current.profiles.some((existing) => existing.id === profile.id);
  const profiles = replaced
    ? current.profiles.map((existing) => (existing.id === profile.id ? profile : existing))
    : [...current.profiles, profile];
  return { ok: true, profile, settings: { ...current, profiles } };
}

/**
 * A connection without an `apiKey` field takes the stored key of the connection with its id, when its
 * base URL has the stored one's origin; otherwise it gets none and is named in `keysDropped`.
 */
function keepStoredApiKeys(document: Record<string, unknown>, current: Settings): { document: Record<string, unknown>; keysDropped: string[] } {
  const keysDropped: string[] = [];
  if (!Array.isArray(document.connections)) return { document, keysDropped };
  const stored = new Map(current.connections.map((connection) => [connection.id, connection]));
  const connections = document.connections.map((connection: unknown) => {
    if (connection === null || typeof connection !== 'object' || Array.isArray(connection)) return connection;
    const record = connection as Record<string, unknown>;
    if ('apiKey' in record || typeof record.id !== 'string') return record;
    const storedConnection = stored.get(record.id);
    if (!storedConnection?.apiKey) return record;
    if (keyMayStay(storedConnection.baseURL, record.baseURL)) return { ...record, apiKey: storedConnection.apiKey };
    keysDropped.push(typeof record.label === 'string' && record.label ? record.label : record.id);
    return record;
  });
  return { document: { ...document, connections }, keysDropped };
}
