import { isOriginInSitesOn, SITES_ON_STORAGE_KEY } from '../settings/sites-on';

/** The slice of `browser.storage` the bridge needs. */
export interface SitesOnStorage {
  local: { get(key: string): Promise<Record<string, unknown>> };
  onChanged: { addListener(listener: (changes: Record<string, { newValue?: unknown }>, areaName: string) => void): void };
}

/**
 * Follows whether Retinue is on for this exact origin (scheme, host and port), from the background's
 * `sitesOn` list and its changes. It reads nothing else: the bridge never holds the settings document.
 */
export function watchSiteEnabled(storage: SitesOnStorage, origin: string): { isOn(): Promise<boolean> } {
  let on = false;
  const loaded = storage.local.get(SITES_ON_STORAGE_KEY).then(
    (items) => void (on = isOriginInSitesOn(items[SITES_ON_STORAGE_KEY], origin)),
    () => void (on = false),
  );
  storage.onChanged.addListener((changes, areaName) => {
    const change = changes[SITES_ON_STORAGE_KEY];
    if (areaName === 'local' && change) on = isOriginInSitesOn(change.newValue, origin);
  });
  return { isOn: () => loaded.then(() => on) };
}
