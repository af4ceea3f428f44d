import { browser } from 'wxt/browser';
import type { Settings } from '../settings/schema';
import { createDefaultSettings, loadSettings, onSettingsChanged } from '../settings/settings-store';
import { originsSwitchedOn, SITES_ON_STORAGE_KEY } from '../settings/sites-on';
import { showSiteStateOnAllTabs, showSiteStateOnTab, siteStateForUrl } from './action-badge';
import { applySiteRegistrations, type SiteRegistrationPlan } from './hook-registrations';
import { switchSite, type SiteSwitchOutcome } from './site-switch';

export interface SiteControls {
  /** Settles when the registrations and badges match the settings as last read. */
  refresh(): Promise<void>;
  /** The sites switched on, and those lacking host permission, as last applied. */
  latestPlan(): SiteRegistrationPlan;
  /** What a click on the toolbar button did for this tab (undefined for a tab that is no web page). */
  toggleTab(tab: { id?: number; url?: string }): Promise<SiteSwitchOutcome | undefined>;
  /** Stops listening (tests; the service worker lives as long as the listeners). */
  dispose(): void;
}

/**
 * Keeps the page-hook registrations and the toolbar badges in line with the settings: at start-up,
 * on every change of the `settings` document (whatever made it), and when host permissions change.
 * Wires the toolbar button to switch the current tab's site. Call once, synchronously, at the top of
 * the background so that the browser sees the listeners.
 */
export function installSiteControls(): SiteControls {
  // The defaults stand in only until the first read lands; made on first use, not at every worker start.
  let loaded: Settings | undefined;
  const settingsNow = (): Settings => (loaded ??= createDefaultSettings());
  let plan: SiteRegistrationPlan = { scripts: [], activeOrigins: [], lackingPermission: [] };

  const refresh = coalesce(async () => {
    const settings = await loadSettings();
    loaded = settings;
    // Written before the registrations, so a page the new registration reaches finds its site on.
    await browser.storage.local.set({ [SITES_ON_STORAGE_KEY]: originsSwitchedOn(settings) });
    plan = await applySiteRegistrations(settings);
    await showSiteStateOnAllTabs({ settings, lackingPermission: plan.lackingPermission });
  });

  const toggleTab = async (tab: { id?: number; url?: string }): Promise<SiteSwitchOutcome | undefined> => {
    // Decided from the settings already in memory: Firefox allows the permission request only
    // while the click is still being handled, so nothing may be awaited before it.
    const state = siteStateForUrl(tab.url, { settings: settingsNow(), lackingPermission: plan.lackingPermission });
    if (state === 'not-a-site' || !tab.url) return undefined;
    const outcome = await switchSite(tab.url, state !== 'on');
    await refresh();
    return outcome;
  };

  const handleClick = (tab: { id?: number; url?: string }): void => {
    toggleTab(tab).catch((error: unknown) => console.error('Retinue: switching the site failed.', error));
  };
  const handleTabUpdate = (_tabId: number, change: { url?: string; status?: string }, tab: { id?: number; url?: string }): void => {
    if (change.url === undefined && change.status !== 'loading') return;
    showSiteStateOnTab(tab, { settings: settingsNow(), lackingPermission: plan.lackingPermission }).catch(() => undefined);
  };
  const handlePermissionChange = (): void => {
    void refresh();
  };

  const stopSettings = onSettingsChanged(() => void refresh());
  browser.action.onClicked.addListener(handleClick);
  browser.tabs.onUpdated.addListener(handleTabUpdate);
  browser.permissions.onAdded.addListener(handlePermissionChange);
  browser.permissions.onRemoved.addListener(handlePermissionChange);
  void refresh();

  return {
    refresh,
    latestPlan: () => plan,
    toggleTab,
    dispose() {
      stopSettings();
      browser.action.onClicked.removeListener(handleClick);
      browser.tabs.onUpdated.removeListener(handleTabUpdate);
      browser.permissions.onAdded.removeListener(handlePermissionChange);
      browser.permissions.onRemoved.removeListener(handlePermissionChange);
    },
  };
}

/**
 * Runs `task` one at a time; calls made while a run waits to start share it, so a burst of
 * changes costs one more run, never a pile of them. A failed run is logged, not thrown.
 */
function coalesce(task: () => Promise<void>): () => Promise<void> {
  let waiting: Promise<void> | undefined;
  let tail: Promise<void> = Promise.resolve();
  return () => {
    if (waiting) return waiting;
    const run = tail.then(async () => {
      waiting = undefined;
      try {
        await task();
      } catch (error) {
        console.error('Retinue: bringing the page-hook registrations in line with the settings failed.', error);
      }
    });
    waiting = run;
    tail = run;
    return run;
  };
}
