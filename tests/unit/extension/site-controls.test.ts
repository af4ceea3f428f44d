import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { installSiteControls, type SiteControls } from '../../../src/extension/site-controls';
import { switchSite } from '../../../src/extension/site-switch';
import { loadSettings, saveSettings } from '../../../src/settings/settings-store';
import { installFakeScriptingAndPermissions } from '../../support/fake-extension-apis';

const englishMessages = JSON.parse(readFileSync(new URL('../../../public/_locales/en/messages.json', import.meta.url), 'utf8')) as Record<
  string,
  { message: string; placeholders?: Record<string, { content: string }> }
>;

/** Chrome's getMessage over the real English messages file: placeholders and $1-style substitutions. */
function fakeGetMessage(key: string, substitutions?: string | string[]): string {
  const entry = englishMessages[key];
  if (!entry) return '';
  const values = substitutions === undefined ? [] : Array.isArray(substitutions) ? substitutions : [substitutions];
  const withPlaceholders = entry.message.replace(/\$([A-Za-z_]+)\$/g, (_match, name: string) => entry.placeholders?.[name.toLowerCase()]?.content ?? '');
  return withPlaceholders.replace(/\$(\d)/g, (_match, index: string) => values[Number(index) - 1] ?? '');
}

let controls: SiteControls | undefined;

beforeEach(() => {
  fakeBrowser.reset();
  fakeBrowser.i18n.getMessage = fakeGetMessage as typeof fakeBrowser.i18n.getMessage;
});
afterEach(() => controls?.dispose());

async function badgeOf(tabId: number) {
  return {
    text: await fakeBrowser.action.getBadgeText({ tabId }),
    title: await fakeBrowser.action.getTitle({ tabId }),
  };
}

describe('switching a site', () => {
  test('a loopback site is switched on without asking for permission, and the document records it', async () => {
    const fake = installFakeScriptingAndPermissions();

    const outcome = await switchSite('http://127.0.0.1:8000/chat?x=1', true, { browserName: 'chrome' });

    expect(outcome.status).toBe('switched-on');
    expect(fake.requests).toEqual([]);
    expect((await loadSettings()).sites).toEqual([{ origin: 'http://127.0.0.1:8000', enabled: true, adapter: 'auto' }]);
  });

  test('another site asks for host permission first and stays off when it is refused', async () => {
    const fake = installFakeScriptingAndPermissions({ grantOnRequest: false });

    const outcome = await switchSite('https://chat.example.com', true, { browserName: 'chrome' });

    expect(fake.requests).toEqual([['https://chat.example.com/*']]);
    expect(outcome.status).toBe('permission-refused');
    expect((await loadSettings()).sites).toEqual([]);
  });

  test('switching off keeps the site entry with its adapter; switching on again turns the global switch on', async () => {
    installFakeScriptingAndPermissions();
    await saveSettings({ version: 1, enabled: false, sites: [{ origin: 'http://localhost:5000', enabled: true, adapter: 'sillytavern' }] });

    await switchSite('http://localhost:5000', false);
    const off = await loadSettings();
    await switchSite('http://localhost:5000', true);
    const on = await loadSettings();

    expect(off.sites).toEqual([{ origin: 'http://localhost:5000', enabled: false, adapter: 'sillytavern' }]);
    expect(on.enabled).toBe(true);
    expect(on.sites[0]?.enabled).toBe(true);
  });

  test('an address that is no web page is refused with a clear error', async () => {
    await expect(switchSite('chrome://extensions', true)).rejects.toMatchObject({ code: 'site-origin-invalid' });
  });
});

describe('the background keeps registrations and badges in line with the settings', () => {
  test('at start-up the stored settings are applied', async () => {
    const fake = installFakeScriptingAndPermissions();
    await saveSettings({ version: 1, sites: [{ origin: 'http://127.0.0.1:8000' }] });

    controls = installSiteControls();
    await controls.refresh();

    expect(fake.registered.get('retinue-page-hook')?.matches).toEqual(['http://127.0.0.1:8000/*']);
  });

  test('a change of the settings document, from anywhere, re-registers', async () => {
    const fake = installFakeScriptingAndPermissions();
    controls = installSiteControls();
    await controls.refresh();

    await saveSettings({ version: 1, sites: [{ origin: 'http://localhost:7000' }] });
    await vi.waitFor(() => expect(fake.registered.get('retinue-bridge')?.matches).toEqual(['http://localhost:7000/*']));
    await saveSettings({ version: 1, enabled: false, sites: [{ origin: 'http://localhost:7000' }] });
    await vi.waitFor(() => expect(fake.registered.size).toBe(0));
  });

  test('switching a second site on re-registers the page hook and the bridge for both origins', async () => {
    const fake = installFakeScriptingAndPermissions();
    await saveSettings({ version: 1, sites: [{ origin: 'http://127.0.0.1:8000' }] });
    controls = installSiteControls();
    await controls.refresh();
    expect(fake.registered.get('retinue-page-hook')?.matches).toEqual(['http://127.0.0.1:8000/*']);

    await switchSite('http://localhost:7000/chat', true, { browserName: 'chrome' });

    const both = ['http://127.0.0.1:8000/*', 'http://localhost:7000/*'];
    await vi.waitFor(() => expect(fake.registered.get('retinue-page-hook')?.matches).toEqual(both));
    expect(fake.registered.get('retinue-bridge')?.matches).toEqual(both);
  });

  test('the bridge’s own storage key lists the origins that are on, and nothing of the settings document', async () => {
    installFakeScriptingAndPermissions();
    await saveSettings({
      version: 1,
      connections: [{ id: 'local', baseURL: 'http://127.0.0.1:9000/v1', apiKey: 'sk-secret', defaultModel: 'm' }],
      sites: [{ origin: 'http://127.0.0.1:8000' }, { origin: 'http://localhost:7000', enabled: false }],
    });
    controls = installSiteControls();
    await controls.refresh();
    expect((await fakeBrowser.storage.local.get('sitesOn')).sitesOn).toEqual(['http://127.0.0.1:8000']);

    await saveSettings({ version: 1, enabled: false, sites: [{ origin: 'http://127.0.0.1:8000' }] });
    await vi.waitFor(async () => expect((await fakeBrowser.storage.local.get('sitesOn')).sitesOn).toEqual([]));
  });

  test('the toolbar button switches the tab’s site on and off, with an ON badge on that tab only', async () => {
    installFakeScriptingAndPermissions();
    const chatTab = await fakeBrowser.tabs.create({ url: 'http://127.0.0.1:8000/' });
    const otherTab = await fakeBrowser.tabs.create({ url: 'http://localhost:9000/' });
    controls = installSiteControls();
    await controls.refresh();

    await fakeBrowser.action.onClicked.trigger(chatTab, undefined);
    await vi.waitFor(async () => expect((await badgeOf(chatTab.id!)).text).toBe('ON'));
    const onBadge = await badgeOf(chatTab.id!);
    const otherBadge = await badgeOf(otherTab.id!);
    await controls.toggleTab(chatTab);
    const offBadge = await badgeOf(chatTab.id!);

    expect(onBadge.title).toBe('Retinue is on for http://127.0.0.1:8000. Click to switch it off.');
    expect(otherBadge.text).toBe('');
    expect(offBadge).toEqual({ text: '', title: 'Retinue is off for http://127.0.0.1:8000. Click to switch it on.' });
    expect((await loadSettings()).sites).toEqual([{ origin: 'http://127.0.0.1:8000', enabled: false, adapter: 'auto' }]);
  });

  test('an enabled site without host permission is reported and marked on its tabs', async () => {
    installFakeScriptingAndPermissions();
    const tab = await fakeBrowser.tabs.create({ url: 'https://chat.example.com/c/1' });
    await saveSettings({ version: 1, sites: [{ origin: 'https://chat.example.com' }] });

    controls = installSiteControls();
    await controls.refresh();

    expect(controls.latestPlan().lackingPermission).toEqual(['https://chat.example.com']);
    expect(await badgeOf(tab.id!)).toEqual({
      text: '!',
      title: 'Retinue is on for https://chat.example.com but may not run there yet. Click to allow access.',
    });
  });

  test('clicking a tab that lacks permission asks for it again and registers once granted', async () => {
    const fake = installFakeScriptingAndPermissions({ grantOnRequest: true });
    const tab = await fakeBrowser.tabs.create({ url: 'https://chat.example.com/c/1' });
    await saveSettings({ version: 1, sites: [{ origin: 'https://chat.example.com' }] });
    controls = installSiteControls();
    await controls.refresh();

    const outcome = await controls.toggleTab(tab);

    expect(outcome?.status).toBe('switched-on');
    expect(fake.requests).toEqual([['https://chat.example.com/*']]);
    expect(fake.registered.get('retinue-page-hook')?.matches).toEqual(['https://chat.example.com/*']);
    expect((await badgeOf(tab.id!)).text).toBe('ON');
  });

  test('a tab that navigates gets the badge of its new site', async () => {
    installFakeScriptingAndPermissions();
    await saveSettings({ version: 1, sites: [{ origin: 'http://127.0.0.1:8000' }] });
    const tab = await fakeBrowser.tabs.create({ url: 'http://localhost:1234/' });
    controls = installSiteControls();
    await controls.refresh();

    await fakeBrowser.tabs.update(tab.id!, { url: 'http://127.0.0.1:8000/chat' });

    await vi.waitFor(async () => expect((await badgeOf(tab.id!)).text).toBe('ON'));
  });
});
