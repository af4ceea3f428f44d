import { settingsSchema, type Settings } from '../settings/schema';

/** The storage area key of the settings document. */
export const SETTINGS_KEY = 'settings';

/** Is Retinue on for this origin: the global switch, and the site's own entry enabled. */
export function isSiteEnabled(settings: Settings | undefined, origin: string): boolean {
  if (!settings?.enabled) return false;
  return settings.sites.some((site) => site.origin === origin && site.enabled);
}

/** Reads the settings document from a storage value; undefined when absent or invalid (Retinue is then off). */
export function readSettingsValue(value: unknown): Settings | undefined {
  const parsed = settingsSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** The slice of `browser.storage` the bridge needs. */
export interface SettingsStorage {
  local: { get(key: string): Promise<Record<string, unknown>> };
  onChanged: { addListener(listener: (changes: Record<string, { newValue?: unknown }>, areaName: string) => void): void };
}

/**
 * Follows whether the site is switched on, from the settings document and its changes. Only the
 * yes/no answer is kept: the bridge never hands settings to the page.
 */
export function watchSiteEnabled(storage: SettingsStorage, origin: string): { isOn(): Promise<boolean> } {
  let on = false;
  const loaded = storage.local.get(SETTINGS_KEY).then(
    (items) => void (on = isSiteEnabled(readSettingsValue(items[SETTINGS_KEY]), origin)),
    () => void (on = false),
  );
  storage.onChanged.addListener((changes, areaName) => {
    const change = changes[SETTINGS_KEY];
    if (areaName === 'local' && change) on = isSiteEnabled(readSettingsValue(change.newValue), origin);
  });
  return { isOn: () => loaded.then(() => on) };
}
