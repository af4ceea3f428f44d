import { browser } from 'wxt/browser';
import { originOfUrl } from '../../extension/origins';

/** The most recently used tab that shows a web page. */
async function lastWebPageOrigin(): Promise<string | undefined> {
  const tabs = await browser.tabs.query({});
  const webTabs = tabs
    .filter((tab) => originOfUrl(tab.url) !== undefined)
    .sort((first, second) => (second.lastAccessed ?? 0) - (first.lastAccessed ?? 0));
  return originOfUrl(webTabs[0]?.url);
}

/**
 * Tells `onOrigin` which site the side panel is about, now and whenever it changes: the
 * `?origin=` query parameter when given (a panel opened as a tab, the tests), else the active tab
 * of the focused window; when that tab is no web page (the panel itself in a tab), the last web page.
 * Returns a function that stops watching.
 */
export function watchCurrentOrigin(onOrigin: (origin: string | undefined) => void, pageUrl: string = location.href): () => void {
  const fixed = originOfUrl(new URL(pageUrl).searchParams.get('origin'));
  if (fixed) {
    onOrigin(fixed);
    return () => undefined;
  }
  let current: string | undefined;
  let known = false;
  function update(next: string | undefined) {
    if (known && next === current) return;
    known = true;
    current = next;
    onOrigin(next);
  }
  async function check() {
    const [active] = await browser.tabs.query({ active: true, lastFocusedWindow: true });
    const activeOrigin = originOfUrl(active?.url);
    update(activeOrigin ?? current ?? (await lastWebPageOrigin()));
  }
  const onActivated = () => void check().catch(() => undefined);
  const onUpdated = (_tabId: number, change: { url?: string; status?: string }) => {
    if (change.url !== undefined || change.status === 'complete') onActivated();
  };
  browser.tabs.onActivated.addListener(onActivated);
  browser.tabs.onUpdated.addListener(onUpdated);
  browser.windows?.onFocusChanged.addListener(onActivated);
  onActivated();
  return () => {
    browser.tabs.onActivated.removeListener(onActivated);
    browser.tabs.onUpdated.removeListener(onUpdated);
    browser.windows?.onFocusChanged.removeListener(onActivated);
  };
}
