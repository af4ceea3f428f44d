import type { Settings, SiteSettings } from './schema';

/** The site entry for an origin (compared case-insensitively), or undefined. */
export function findSite(settings: Pick<Settings, 'sites'>, origin: string): SiteSettings | undefined {
  const wanted = origin.toLowerCase();
  return settings.sites.find((site) => site.origin.toLowerCase() === wanted);
}

/** Whether Retinue works on this origin: the global switch is on and the site is switched on. */
export function isSiteSwitchedOn(settings: Pick<Settings, 'enabled' | 'sites'>, origin: string): boolean {
  return settings.enabled && findSite(settings, origin)?.enabled === true;
}

/** The root profile for runs on this origin: the site's own wins over `defaults.rootProfileId`. */
export function rootProfileIdFor(settings: Pick<Settings, 'sites' | 'defaults'>, origin: string): string {
  return findSite(settings, origin)?.rootProfileId ?? settings.defaults.rootProfileId;
}

/** The reply deadline for runs on this origin: the site's own wins over `defaults.replyDeadlineMs`; 0 is off. */
export function replyDeadlineMsFor(settings: Pick<Settings, 'sites' | 'defaults'>, origin: string): number | undefined {
  const deadline = findSite(settings, origin)?.replyDeadlineMs ?? settings.defaults.replyDeadlineMs;
  return deadline > 0 ? deadline : undefined;
}
