import { isOriginInSitesOn, SITES_ON_STORAGE_KEY } from '../settings/sites-on';

/** The slice of `browser.storage` the bridge needs: one key read, no change listener. */
export interface SitesOnStorage {
  local: { get(key: string): Promise<Record<string, unknown>> };
}

/**
 * Tells whether Retinue is on for this exact origin (scheme, host and port), reading the background's
 * `sitesOn` list each time it is asked. It reads nothing else and listens to no `storage.onChanged`:
 * a change listener would receive every changed value of storage.local, the settings document too.
 */
export function readSiteEnabled(sitesOnStorage: SitesOnStorage, origin: string): { isOn(): Promise<boolean> } {
  return {
    isOn: () =>
      sitesOnStorage.local.get(SITES_ON_STORAGE_KEY).then(
        (items) => isOriginInSitesOn(items[SITES_ON_STORAGE_KEY], origin),
        () => false,
      ),
  };
}
