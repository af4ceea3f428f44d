import fc from 'fast-check';
import { beforeEach, describe, expect, test } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import {
  applySiteRegistrations,
  BRIDGE_FILE,
  PAGE_HOOK_FILE,
  planSiteRegistrations,
  syncContentScripts,
} from '../../../src/extension/hook-registrations';
import { originMatchPattern } from '../../../src/extension/origins';
import { settingsSchema, type SettingsInput } from '../../../src/settings/schema';
import { installFakeScriptingAndPermissions } from '../../support/fake-extension-apis';

const settingsWith = (document: Omit<SettingsInput, 'version'>) => settingsSchema.parse({ version: 1, ...document });

const twoSites = settingsWith({
  sites: [
    { origin: 'http://127.0.0.1:8000', enabled: true },
    { origin: 'https://chat.example.com', enabled: true },
    { origin: 'http://localhost:3000', enabled: false },
  ],
});

beforeEach(() => fakeBrowser.reset());

describe('match patterns for an origin', () => {
  test.each([
    ['http://127.0.0.1:8000', 'chrome', 'http://127.0.0.1:8000/*'],
    ['http://127.0.0.1:8000', 'firefox', 'http://127.0.0.1/*'],
    ['https://chat.example.com', 'chrome', 'https://chat.example.com/*'],
    ['https://chat.example.com:8443', 'firefox', 'https://chat.example.com/*'],
  ] as const)('%s on %s → %s', (origin, browserName, expected) => {
    expect(originMatchPattern(origin, browserName)).toBe(expected);
  });
});

describe('the registrations a settings document asks for', () => {
  test('the page hook in the MAIN world and the bridge, at document_start, persisted, on enabled permitted sites only', () => {
    const plan = planSiteRegistrations({ settings: twoSites, hasPermission: (origin) => origin.startsWith('http://127.0.0.1'), browserName: 'chrome' });

    expect(plan.scripts).toEqual([
      { id: 'retinue-bridge', js: [BRIDGE_FILE], matches: ['http://127.0.0.1:8000/*'], runAt: 'document_start', allFrames: false, persistAcrossSessions: true },
      { id: 'retinue-page-hook', js: [PAGE_HOOK_FILE], world: 'MAIN', matches: ['http://127.0.0.1:8000/*'], runAt: 'document_start', allFrames: false, persistAcrossSessions: true },
    ]);
    expect(plan.activeOrigins).toEqual(['http://127.0.0.1:8000']);
    expect(plan.lackingPermission).toEqual(['https://chat.example.com']);
  });

  test('the global switch off registers nothing and reports nothing missing', () => {
    const plan = planSiteRegistrations({ settings: { ...twoSites, enabled: false }, hasPermission: () => true, browserName: 'chrome' });

    expect(plan).toEqual({ scripts: [], activeOrigins: [], lackingPermission: [] });
  });

  test('no site switched on registers nothing', () => {
    expect(planSiteRegistrations({ settings: settingsWith({}), hasPermission: () => true, browserName: 'chrome' }).scripts).toEqual([]);
  });

  test('on Firefox two ports of one host share one port-less pattern', () => {
    const settings = settingsWith({ sites: [{ origin: 'http://127.0.0.1:8000' }, { origin: 'http://127.0.0.1:8001' }] });

    const plan = planSiteRegistrations({ settings, hasPermission: () => true, browserName: 'firefox' });

    expect(plan.scripts[1]?.matches).toEqual(['http://127.0.0.1/*']);
  });
});

describe('registrations follow the switches, whatever the document', () => {
  const siteArbitrary = fc.record({
    origin: fc.constantFrom('http://127.0.0.1:8000', 'http://localhost:3000', 'https://chat.example.com', 'https://b.example.org:8443'),
    enabled: fc.boolean(),
    permitted: fc.boolean(),
  });

  test('on Chrome a page hook runs exactly on the origins that are switched on and permitted', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.uniqueArray(siteArbitrary, { selector: (site) => site.origin, maxLength: 4 }), (globalSwitch, sites) => {
        const settings = settingsWith({ enabled: globalSwitch, sites: sites.map(({ origin, enabled }) => ({ origin, enabled })) });
        const permitted = new Set<string>(sites.filter((site) => site.permitted).map((site) => site.origin));

        const plan = planSiteRegistrations({ settings, hasPermission: (origin) => permitted.has(origin), browserName: 'chrome' });

        const expected = globalSwitch ? sites.filter((site) => site.enabled && site.permitted).map((site) => `${site.origin}/*`).sort() : [];
        const hook = plan.scripts.find((script) => script.id === 'retinue-page-hook');
        expect(hook?.matches ?? []).toEqual(expected);
        expect(plan.scripts.find((script) => script.id === 'retinue-bridge')?.matches ?? []).toEqual(expected);
        expect(plan.lackingPermission.sort()).toEqual(globalSwitch ? sites.filter((site) => site.enabled && !site.permitted).map((site) => site.origin).sort() : []);
      }),
    );
  });
});

describe('making the browser registrations match', () => {
  test('switching a site on registers both scripts; switching it off unregisters them', async () => {
    const fake = installFakeScriptingAndPermissions();

    const on = await applySiteRegistrations(twoSites, { browserName: 'chrome' });
    const registeredWhenOn = [...fake.registered.values()];
    await applySiteRegistrations(settingsWith({ sites: [{ origin: 'http://127.0.0.1:8000', enabled: false }] }), { browserName: 'chrome' });

    expect(registeredWhenOn.map((script) => [script.id, script.world ?? 'ISOLATED', script.matches])).toEqual([
      ['retinue-bridge', 'ISOLATED', ['http://127.0.0.1:8000/*']],
      ['retinue-page-hook', 'MAIN', ['http://127.0.0.1:8000/*']],
    ]);
    expect(on.lackingPermission).toEqual(['https://chat.example.com']);
    expect(fake.registered.size).toBe(0);
  });

  test('a granted permission brings its site into the registrations', async () => {
    const fake = installFakeScriptingAndPermissions({ grantedPatterns: ['http://127.0.0.1/*', 'https://chat.example.com/*'] });

    const plan = await applySiteRegistrations(twoSites, { browserName: 'chrome' });

    expect(plan.lackingPermission).toEqual([]);
    expect(fake.registered.get('retinue-page-hook')?.matches).toEqual(['http://127.0.0.1:8000/*', 'https://chat.example.com/*']);
  });

  test('applying the same settings twice changes nothing the second time', async () => {
    const fake = installFakeScriptingAndPermissions();
    await applySiteRegistrations(twoSites, { browserName: 'chrome' });
    const calls: string[] = [];
    const registry = {
      getRegisteredContentScripts: fake.scripting.getRegisteredContentScripts,
      registerContentScripts: async () => void calls.push('register'),
      unregisterContentScripts: async () => void calls.push('unregister'),
    };

    await syncContentScripts(registry, planSiteRegistrations({ settings: twoSites, hasPermission: (origin) => origin.startsWith('http://127'), browserName: 'chrome' }).scripts);

    expect(calls).toEqual([]);
  });

  test('registrations of other ids are left alone', async () => {
    const fake = installFakeScriptingAndPermissions();
    await fake.scripting.registerContentScripts([{ id: 'someone-else', js: ['x.js'], matches: ['http://127.0.0.1/*'] }]);

    await applySiteRegistrations(settingsWith({}), { browserName: 'chrome' });

    expect([...fake.registered.keys()]).toEqual(['someone-else']);
  });
});
