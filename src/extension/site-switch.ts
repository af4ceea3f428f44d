import { browser } from 'wxt/browser';
import { ConfigurationError } from '../errors';
import type { Settings } from '../settings/schema';
import { findSite } from '../settings/site-settings';
import { updateSettings } from '../settings/settings-store';
import { currentBrowserName, isUpFrontOrigin, originMatchPattern, originOfUrl, type BrowserName } from './origins';

export type SiteSwitchOutcome =
  | { status: 'switched-on' | 'switched-off'; origin: string; settings: Settings }
  | { status: 'permission-refused'; origin: string; message: string };

/** The browser APIs a switch needs; `browser` in the extension. */
export interface SiteSwitchBrowser {
  permissions: { request(permissions: { origins: string[] }): Promise<boolean> };
}

/**
 * Switches Retinue on or off for one origin and writes the settings document (the background then
 * registers or unregisters the page hook). Switching on asks for host permission first, except for
 * `http://localhost` and `http://127.0.0.1`, which the manifest grants; it also turns the global
 * switch on, since the user asked for Retinue here. Call it straight from a click handler: the
 * permission request is its first step, as Firefox demands.
 *
 * @example
 * const outcome = await switchSite('https://chat.example.com', true);
 * if (outcome.status === 'permission-refused') show(outcome.message);
 */
export async function switchSite(
  originOrUrl: string,
  enabled: boolean,
  options: { api?: SiteSwitchBrowser; browserName?: BrowserName } = {},
): Promise<SiteSwitchOutcome> {
  const origin = originOfUrl(originOrUrl);
  if (!origin) {
    throw new ConfigurationError(
      'site-origin-invalid',
      `"${originOrUrl}" is not a web page's address; Retinue can be switched on for http:// and https:// pages only.`,
    );
  }
  if (enabled && !isUpFrontOrigin(origin)) {
    const api: SiteSwitchBrowser = options.api ?? browser;
    const pattern = originMatchPattern(origin, options.browserName ?? currentBrowserName());
    let granted: boolean;
    try {
      granted = await api.permissions.request({ origins: [pattern] });
    } catch (error) {
      return { status: 'permission-refused', origin, message: `The browser did not ask for access to ${origin}: ${String(error)}. Switch the site on from the side panel or the options page.` };
    }
    if (!granted) {
      return { status: 'permission-refused', origin, message: `Access to ${origin} was not granted, so Retinue stays off there. Switch it on again and allow access to use it.` };
    }
  }
  const settings = await updateSettings((current) => withSiteSwitched(current, origin, enabled));
  return { status: enabled ? 'switched-on' : 'switched-off', origin, settings };
}

/** The settings with one site switched: an existing entry keeps its adapter and root profile. */
export function withSiteSwitched(settings: Settings, origin: string, enabled: boolean): Settings {
  const existing = findSite(settings, origin);
  const sites = existing
    ? settings.sites.map((site) => (site === existing ? { ...site, enabled } : site))
    : [...settings.sites, { origin, enabled, adapter: 'auto' as const }];
  return { ...settings, enabled: enabled ? true : settings.enabled, sites };
}
