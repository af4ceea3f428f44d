import { beforeEach, expect, test } from 'vitest';
import { browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { readSiteEnabled } from '../../../src/bridge/site-state';

beforeEach(() => fakeBrowser.reset());

const origin = 'http://127.0.0.1:8000';

test('the site is on only when its exact origin is in the background’s list', async () => {
  await browser.storage.local.set({ sitesOn: [origin] });
  expect(await readSiteEnabled(browser.storage, origin).isOn()).toBe(true);
  // Firefox registers the bridge on every port of a host: another port is another site.
  expect(await readSiteEnabled(browser.storage, 'http://127.0.0.1:9999').isOn()).toBe(false);
  expect(await readSiteEnabled(browser.storage, 'https://127.0.0.1:8000').isOn()).toBe(false);
});

test('switching the site off takes effect without a reload', async () => {
  await browser.storage.local.set({ sitesOn: [origin] });
  const site = readSiteEnabled(browser.storage, origin);
  expect(await site.isOn()).toBe(true);
  await browser.storage.local.set({ sitesOn: [] });
  expect(await site.isOn()).toBe(false);
});

test('the settings document alone does not switch the bridge on: it reads its own key only', async () => {
  await browser.storage.local.set({ settings: { version: 1, enabled: true, sites: [{ origin, enabled: true }] } });
  expect(await readSiteEnabled(browser.storage, origin).isOn()).toBe(false);
  await browser.storage.local.set({ sitesOn: 'http://127.0.0.1:8000' });
  expect(await readSiteEnabled(browser.storage, origin).isOn()).toBe(false);
});

test('the bridge listens to no storage change: it would receive every changed document, the settings included', async () => {
  const asked: string[] = [];
  let listened = false;
  const storage = {
    local: { get: async (key: string) => (asked.push(key), key === 'sitesOn' ? { sitesOn: [origin] } : {}) },
    onChanged: { addListener: () => void (listened = true) },
  };

  const site = readSiteEnabled(storage, origin);

  expect(await site.isOn()).toBe(true);
  expect(listened).toBe(false);
  expect(asked.every((key) => key === 'sitesOn')).toBe(true);
});
