import { browser } from 'wxt/browser';
import type { Settings } from '../settings/schema';
import { currentBrowserName, originMatchPattern, type BrowserName } from './origins';

/** Registration ids; stable so that start-up finds the registrations it persisted earlier. */
export const PAGE_HOOK_SCRIPT_ID = 'retinue-page-hook';
export const BRIDGE_SCRIPT_ID = 'retinue-bridge';
/** The built files of `entrypoints/page-hook.ts` and `entrypoints/bridge.ts` (unlisted scripts, registered at run time). */
export const PAGE_HOOK_FILE = 'page-hook.js';
export const BRIDGE_FILE = 'bridge.js';

/** One content script as `scripting.registerContentScripts` takes it (the fields Retinue sets). */
export interface ContentScriptRegistration {
  id: string;
  js: string[];
  matches: string[];
  runAt: 'document_start';
  world?: 'MAIN';
  allFrames: false;
  persistAcrossSessions: true;
}

/** The part of `browser.scripting` the registrations use; a fake in tests, the browser's in the extension. */
export interface ContentScriptRegistry {
  getRegisteredContentScripts(filter?: { ids?: string[] }): Promise<{ id: string; js?: string[]; matches?: string[] }[]>;
  registerContentScripts(scripts: ContentScriptRegistration[]): Promise<void>;
  unregisterContentScripts(filter?: { ids?: string[] }): Promise<void>;
}

export interface SiteRegistrationPlan {
  /** What should be registered: both scripts over every active origin, or nothing. */
  scripts: ContentScriptRegistration[];
  /** Origins switched on with host permission: the page hook runs there. */
  activeOrigins: string[];
  /** Origins switched on whose host permission is missing: the user must grant it. */
  lackingPermission: string[];
}

/**
 * The registrations a settings document asks for: the page hook (MAIN world) and the bridge
 * (isolated world), both at `document_start`, on the sites that are switched on and permitted.
 * With the global switch off, nothing is registered.
 */
export function planSiteRegistrations(options: {
  settings: Pick<Settings, 'enabled' | 'sites'>;
  hasPermission: (origin: string) => boolean;
  browserName: BrowserName;
}): SiteRegistrationPlan {
  const switchedOn = options.settings.enabled ? options.settings.sites.filter((site) => site.enabled).map((site) => site.origin) : [];
  const activeOrigins = switchedOn.filter((origin) => options.hasPermission(origin));
  const lackingPermission = switchedOn.filter((origin) => !options.hasPermission(origin));
  const matches = [...new Set(activeOrigins.map((origin) => originMatchPattern(origin, options.browserName)))].sort();
  if (matches.length === 0) return { scripts: [], activeOrigins, lackingPermission };
  const common = { matches, runAt: 'document_start', allFrames: false, persistAcrossSessions: true } as const;
  return {
    scripts: [
      { id: BRIDGE_SCRIPT_ID, js: [BRIDGE_FILE], ...common },
      { id: PAGE_HOOK_SCRIPT_ID, js: [PAGE_HOOK_FILE], world: 'MAIN', ...common },
    ],
    activeOrigins,
    lackingPermission,
  };
}

/**
 * Makes the registered scripts match `wanted`: registers what is missing, re-registers what
 * differs, unregisters Retinue's scripts that are no longer wanted. Leaves other ids alone.
 */
export async function syncContentScripts(registry: ContentScriptRegistry, wanted: readonly ContentScriptRegistration[]): Promise<void> {
  const ourIds = [BRIDGE_SCRIPT_ID, PAGE_HOOK_SCRIPT_ID];
  const registered = await registry.getRegisteredContentScripts({ ids: ourIds });
  const registeredById = new Map(registered.filter((script) => ourIds.includes(script.id)).map((script) => [script.id, script]));
  const toRegister = wanted.filter((script) => {
    const existing = registeredById.get(script.id);
    return !existing || !sameList(existing.matches, script.matches) || !sameList(existing.js, script.js);
  });
  const wantedIds = new Set(wanted.map((script) => script.id));
  const toUnregister = [...registeredById.keys()].filter(
    (id) => !wantedIds.has(id) || toRegister.some((script) => script.id === id),
  );
  if (toUnregister.length > 0) await registry.unregisterContentScripts({ ids: toUnregister });
  if (toRegister.length > 0) await registry.registerContentScripts(toRegister);
}

function sameList(actual: readonly string[] | undefined, expected: readonly string[]): boolean {
  const sorted = [...(actual ?? [])].sort();
  return sorted.length === expected.length && [...expected].sort().every((value, index) => value === sorted[index]);
}

/** The browser APIs the registrations need; `browser` in the extension. */
export interface RegistrationBrowser {
  scripting: ContentScriptRegistry;
  permissions: { contains(permissions: { origins: string[] }): Promise<boolean> };
}

/**
 * Brings the page-hook registrations in line with `settings`, asking the browser which enabled
 * origins have host permission. Returns the plan it applied, with the enabled sites that lack
 * permission so the caller can tell the user.
 */
export async function applySiteRegistrations(
  settings: Pick<Settings, 'enabled' | 'sites'>,
  options: { api?: RegistrationBrowser; browserName?: BrowserName } = {},
): Promise<SiteRegistrationPlan> {
  const api: RegistrationBrowser = options.api ?? browser;
  const browserName = options.browserName ?? currentBrowserName();
  const switchedOn = settings.enabled ? settings.sites.filter((site) => site.enabled) : [];
  const permitted = new Set<string>();
  for (const site of switchedOn) {
    if (await api.permissions.contains({ origins: [originMatchPattern(site.origin, browserName)] })) permitted.add(site.origin);
  }
  const plan = planSiteRegistrations({ settings, hasPermission: (origin) => permitted.has(origin), browserName });
  await syncContentScripts(api.scripting, plan.scripts);
  return plan;
}
