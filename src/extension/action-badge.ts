import { browser } from 'wxt/browser';
import { t } from '../i18n';
import type { Settings } from '../settings/schema';
import { isSiteSwitchedOn } from '../settings/site-settings';
import { originOfUrl } from './origins';

/** What the toolbar button shows for one tab. */
export type SiteState = 'on' | 'needs-permission' | 'off' | 'not-a-site';

/** The state of the page at `url`: on, on but lacking host permission, off, or no web page at all. */
export function siteStateForUrl(
  url: string | undefined,
  context: { settings: Pick<Settings, 'enabled' | 'sites'>; lackingPermission: readonly string[] },
): SiteState {
  const origin = originOfUrl(url);
  if (!origin) return 'not-a-site';
  if (!isSiteSwitchedOn(context.settings, origin)) return 'off';
  return context.lackingPermission.includes(origin) ? 'needs-permission' : 'on';
}

const BADGE_COLORS: Record<SiteState, string> = {
  on: '#2e7d32',
  'needs-permission': '#b26a00',
  off: '#5f6368',
  'not-a-site': '#5f6368',
};

/** Badge text and tooltip for a state. */
export function badgeFor(state: SiteState, origin: string | undefined): { text: string; title: string; color: string } {
  const color = BADGE_COLORS[state];
  if (state === 'on') return { text: t('site_badgeOn'), title: t('site_titleOn', [origin ?? '']), color };
  if (state === 'needs-permission') return { text: '!', title: t('site_titleNeedsPermission', [origin ?? '']), color };
  if (state === 'off') return { text: '', title: t('site_titleOff', [origin ?? '']), color };
  return { text: '', title: t('actionTitle'), color };
}

/** Sets one tab's badge and tooltip from its page's state. */
export async function showSiteStateOnTab(
  tab: { id?: number; url?: string },
  context: { settings: Pick<Settings, 'enabled' | 'sites'>; lackingPermission: readonly string[] },
): Promise<void> {
  if (tab.id === undefined) return;
  const badge = badgeFor(siteStateForUrl(tab.url, context), originOfUrl(tab.url));
  await browser.action.setBadgeText({ tabId: tab.id, text: badge.text });
  await browser.action.setBadgeBackgroundColor({ tabId: tab.id, color: badge.color });
  await browser.action.setTitle({ tabId: tab.id, title: badge.title });
}

/** Refreshes the badge of every open tab (tabs whose address Retinue may not see show nothing). */
export async function showSiteStateOnAllTabs(context: { settings: Pick<Settings, 'enabled' | 'sites'>; lackingPermission: readonly string[] }): Promise<void> {
  const tabs = await browser.tabs.query({});
  await Promise.all(tabs.map((tab) => showSiteStateOnTab(tab, context)));
}
