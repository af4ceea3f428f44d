import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CHROME_EXTENSION_ID, GECKO_ID } from '../../src/extension/identity';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { launchChromiumWithExtension, type ChromiumWithExtension } from './support/chromium';
import { launchFirefoxWithExtension, type FirefoxWithExtension } from './support/firefox';
import { startFixtureServer, type FixtureServer } from './support/fixture-server';
import { sendFixtureMessage, stopFixtureGeneration, waitForFixtureReady } from './support/fixture-pages';
import { readRunStore, readStorage, writeSettings } from './support/settings';
import { coversOrigin, readRegisteredContentScripts, waitForRegisteredContentScripts } from './support/registrations';
import { saveScreenshot } from './support/screenshots';
import { switchSitesOn } from './support/site-setup';

/**
 * The harness itself: the built extension loads in both browsers under its fixed ids, its pages
 * open, settings written through the harness read back, and a site switched on gets the page hook.
 * (The fixture pages on their own are checked in fixture-pages.test.ts.)
 */

const settingsDocument = {
  version: 1,
  sites: [{ origin: 'http://127.0.0.1:9', enabled: true, adapter: 'auto' }],
  defaults: { maxRunningChildren: 2 },
} as const;

let model: ScriptedModelServer;
let fixtures: FixtureServer;

beforeAll(async () => {
  model = await startScriptedModelServer();
  fixtures = await startFixtureServer({ modelBaseUrl: model.baseURL });
});

afterAll(async () => {
  await fixtures?.close();
  await model?.close();
});

describe('Chromium', () => {
  let chromium: ChromiumWithExtension;

  beforeAll(async () => {
    chromium = await launchChromiumWithExtension();
  });
  afterAll(async () => {
    await chromium?.close();
  });

  test('loads the extension under its fixed id with its service worker running', () => {
    expect(chromium.extensionId).toBe(CHROME_EXTENSION_ID);
    expect(chromium.serviceWorker.url()).toBe(`chrome-extension://${CHROME_EXTENSION_ID}/background.js`);
  });

  test('opens the options page and the side panel as tabs', async () => {
    const options = await chromium.openExtensionPage('options.html');
    const sidePanel = await chromium.openExtensionPage('sidepanel.html');
    expect(options.url()).toBe(`chrome-extension://${CHROME_EXTENSION_ID}/options.html`);
    expect(await options.locator('#app').count()).toBe(1);
    expect(await sidePanel.locator('#app').count()).toBe(1);
    await saveScreenshot(sidePanel, 'harness-chromium-side-panel');
    await options.close();
    await sidePanel.close();
  });

  test('settings written from the options page read back there and in the service worker', async () => {
    const options = await chromium.openExtensionPage('options.html');
    await writeSettings(options, settingsDocument);
    expect(await readStorage(options, 'settings')).toEqual(settingsDocument);
    expect(await readStorage(chromium.serviceWorker, 'settings')).toEqual(settingsDocument);
    await options.close();
  });

  test('the run store reads as empty before any run, without creating the database', async () => {
    const options = await chromium.openExtensionPage('options.html');
    const snapshot = await readRunStore(options, 'retinue-harness-absent');
    const created = await options.evaluate(async () => (await indexedDB.databases()).map((entry) => entry.name));
    expect(snapshot).toEqual({ runs: [], tasks: [] });
    expect(created).not.toContain('retinue-harness-absent');
    await options.close();
  });

  test('a stopped service worker is counted when it starts again', async () => {
    await chromium.serviceWorker.evaluate(() => {
      (globalThis as { harnessMarker?: string }).harnessMarker = 'before the stop';
    }, undefined);
    await chromium.stopServiceWorker();
    const worker = await chromium.waitForServiceWorker();
    const marker = await worker.evaluate(() => (globalThis as { harnessMarker?: string }).harnessMarker ?? 'fresh', undefined);
    expect(marker).toBe('fresh');
    expect(chromium.serviceWorkerRestarts).toBe(1);
  });

  test('a site switched on in settings gets the page hook (MAIN world) and the bridge; switched off, neither', async () => {
    const options = await chromium.openExtensionPage('options.html');
    const enabledOrigin = fixtures.origins.primary;
    await switchSitesOn(options, [enabledOrigin]);
    const registered = await readRegisteredContentScripts(chromium.serviceWorker);
    const pageHook = registered.find((script) => script.world === 'MAIN');
    expect(pageHook).toMatchObject({ runAt: 'document_start', js: ['page-hook.js'] });
    expect(registered.some((script) => coversOrigin(script, fixtures.origins.secondary))).toBe(false);

    await writeSettings(options, { version: 1, sites: [{ origin: enabledOrigin, enabled: false }] });
    await waitForRegisteredContentScripts(chromium.serviceWorker, (scripts) => !scripts.some((script) => coversOrigin(script, enabledOrigin)), {
      description: `the registrations for ${enabledOrigin} to go away`,
    });
    expect(await readRegisteredContentScripts(chromium.serviceWorker)).toEqual([]);
    await options.close();
  });
});

describe('Firefox', () => {
  let firefox: FirefoxWithExtension;

  beforeAll(async () => {
    firefox = await launchFirefoxWithExtension();
  });
  afterAll(async () => {
    await firefox?.close();
  });

  test('installs the add-on under its fixed id and opens its options page', async () => {
    expect(firefox.addonId).toBe(GECKO_ID);
    const options = await firefox.openExtensionPage('options.html');
    // Puppeteer's page.url() stays at about:blank for extension pages in Firefox; ask the page.
    expect(await options.evaluate(() => location.href)).toBe(`moz-extension://${firefox.extensionUuid}/options.html`);
    expect(await options.evaluate(() => document.getElementById('app') !== null)).toBe(true);
    await options.close();
  });

  test('a page asked for a narrow window gets one, without viewport emulation', async () => {
    const sidebar = await firefox.openExtensionPage('sidepanel.html', { windowSize: { width: 400, height: 900 } });
    const width = await sidebar.evaluate(() => window.innerWidth);
    expect(width).toBeLessThanOrEqual(400);
    await sidebar.close();
  });

  test('no end-to-end test sizes a Firefox page by viewport emulation, which some firefox-esr builds refuse', async () => {
    // puppeteer's page.setViewport sends emulation.setScreenOrientationOverride, unknown to Debian 12's
    // firefox-esr 140: a machine with that build would fail. Size windows with openExtensionPage's windowSize.
    const directory = path.dirname(fileURLToPath(import.meta.url));
    const files = (await readdir(directory, { recursive: true })).filter((file) => file.endsWith('.ts'));
    const offenders: string[] = [];
    for (const file of files) {
      const text = await readFile(path.join(directory, file), 'utf8');
      if (/\.setViewport\(/.test(text)) offenders.push(file);
    }
    expect(offenders).toEqual([]);
  });

  test('settings written from the options page read back', async () => {
    const options = await firefox.openExtensionPage('options.html');
    await writeSettings(options, settingsDocument);
    expect(await readStorage(options, 'settings')).toEqual(settingsDocument);
    await options.close();
  });

  test('loopback host permissions are granted to the temporarily installed add-on', async () => {
    const options = await firefox.openExtensionPage('options.html');
    const granted = await options.evaluate(async () => {
      const api = (globalThis as { browser?: { permissions: { contains(query: { origins: string[] }): Promise<boolean> } } }).browser!;
      return {
        loopback: await api.permissions.contains({ origins: ['http://127.0.0.1/*'] }),
        localhost: await api.permissions.contains({ origins: ['http://localhost/*'] }),
      };
    });
    expect(granted).toEqual({ loopback: true, localhost: true });
    await options.close();
  });

  test('a site switched on in settings gets the page hook and the bridge', async () => {
    const options = await firefox.openExtensionPage('options.html');
    await writeSettings(options, { version: 1, sites: [{ origin: fixtures.origins.primary, enabled: true }] });
    const registered = await waitForRegisteredContentScripts(options, (scripts) => scripts.filter((script) => coversOrigin(script, fixtures.origins.primary)).length === 2, {
      description: 'the page hook and bridge to be registered in Firefox',
    });
    expect(registered.find((script) => script.world === 'MAIN')?.js).toEqual(['page-hook.js']);
    await writeSettings(options, { version: 1, sites: [] });
    await waitForRegisteredContentScripts(options, (scripts) => scripts.length === 0, { description: 'the registrations to go away in Firefox' });
    await options.close();
  });

  test('the SillyTavern-shaped page gets a streamed reply', async () => {
    model.reset();
    model.script(() => ({ content: 'Hello from Firefox.' }));
    const page = await firefox.openPage(fixtures.pageUrl('/sillytavern/', { custom_url: model.baseURL }));
    await waitForFixtureReady(page);
    const turn = await sendFixtureMessage(page, 'Hi');
    expect(turn).toMatchObject({ status: 'done', reply: 'Hello from Firefox.' });
    await stopFixtureGeneration(page);
    await page.close();
  });
});
