import { beforeEach, expect, test } from 'vitest';
import { browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { watchSiteEnabled } from '../../../src/bridge/site-state';

beforeEach(() => fakeBrowser.reset());

const origin = 'http://127.0.0.1:8000';
const settings = (siteEnabled: boolean, globalEnabled = true) => ({
  version: 1,
  enabled: globalEnabled,
  sites: [{ origin, enabled: siteEnabled }],
});

test('the site is on only when it is enabled and the global switch is on', async () => {
  await browser.storage.local.set({ settings: settings(true) });
  const site = watchSiteEnabled(browser.storage, origin);
  expect(await site.isOn()).toBe(true);
  expect(await watchSiteEnabled(browser.storage, 'http://127.0.0.1:9999').isOn()).toBe(false);
});

test('switching the site or Retinue off takes effect without a reload', async () => {
  await browser.storage.local.set({ settings: settings(true) });
  const site = watchSiteEnabled(browser.storage, origin);
  expect(await site.isOn()).toBe(true);
  await browser.storage.local.set({ settings: settings(false) });
  expect(await site.isOn()).toBe(false);
  await browser.storage.local.set({ settings: settings(true, false) });
  expect(await site.isOn()).toBe(false);
});

test('no settings, or an invalid document, means off', async () => {
  expect(await watchSiteEnabled(browser.storage, origin).isOn()).toBe(false);
  await browser.storage.local.set({ settings: { version: 99 } });
  expect(await watchSiteEnabled(browser.storage, origin).isOn()).toBe(false);
});
