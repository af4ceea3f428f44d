import { settingsFromStoredValue, SETTINGS_STORAGE_KEY as SETTINGS_KEY } from '../settings/settings-store';
import { isSiteSwitchedOn } from '../settings/site-settings';

/** Is Retinue on for this origin, by the stored settings value (absent or invalid: off, as the defaults say). */
function isOnByStoredValue(value: unknown, origin: string): boolean {
  return isSiteSwitchedOn(settingsFromStoredValue(value).settings, origin);
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
    (items) => void (on = isOnByStoredValue(items[SETTINGS_KEY], origin)),
    () => void (on = false),
  );
  storage.onChanged.addListener((changes, areaName) => {
    const change = changes[SETTINGS_KEY];
    if (areaName === 'local' && change) on = isOnByStoredValue(change.newValue, origin);
  });
  return { isOn: () => loaded.then(() => on) };
}
