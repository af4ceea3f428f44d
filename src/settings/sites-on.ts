import { z } from 'zod/mini';
import { builtOnFirstUse } from '../built-on-first-use';
import type { Settings } from './schema';

/**
 * The `browser.storage.local` key of the origins Retinue works on now. The background writes it from
 * the settings document; the bridge reads this key alone, so a page's renderer never holds the
 * settings document or its keys.
 */
export const SITES_ON_STORAGE_KEY = 'sitesOn';

// `zod/mini` (tree-shakes): the bridge content script reads this key.
const sitesOnSchema = builtOnFirstUse(() => z.array(z.string().check(z.maxLength(300))).check(z.maxLength(1_000)));

/** The exact origins Retinue works on: none while the global switch is off. */
export function originsSwitchedOn(settings: Pick<Settings, 'enabled' | 'sites'>): string[] {
  return settings.enabled ? settings.sites.filter((site) => site.enabled).map((site) => site.origin) : [];
}

/** Whether a stored `sitesOn` value lists this exact origin (absent or malformed: no). */
export function isOriginInSitesOn(stored: unknown, origin: string): boolean {
  const parsed = sitesOnSchema().safeParse(stored);
  return parsed.success && parsed.data.includes(origin);
}
