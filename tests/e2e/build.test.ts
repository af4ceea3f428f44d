import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { browser as extensionBrowser } from 'wxt/browser';
import { BRIDGE_FILE, PAGE_HOOK_FILE } from '../../src/extension/hook-registrations';
import { CHROME_MANIFEST_KEY, GECKO_ID } from '../../src/extension/identity';
import { listZipEntries, readZipEntry } from '../support/read-zip-entry';
import { buildExtension, extensionOutputDirectory, type TargetBrowser } from './support/build-extension';

/** The extension API inside evaluate() callbacks, which run in the extension, not here. */
declare const chrome: typeof extensionBrowser;
declare const browser: typeof extensionBrowser;

const runFile = promisify(execFile);
const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

type Manifest = Record<string, unknown> & {
  permissions?: string[];
  host_permissions?: string[];
  optional_host_permissions?: string[];
  content_scripts?: { js?: string[] }[];
};

const readManifest = (directory: string): Manifest => JSON.parse(readFileSync(path.join(directory, 'manifest.json'), 'utf8'));

const staticScripts = (manifest: Manifest): string[] => (manifest.content_scripts ?? []).flatMap((script) => script.js ?? []);

const storeDirectory = mkdtempSync(path.join(tmpdir(), 'retinue-store-'));

/** The development builds every e2e test loads (made once per run by the e2e global setup). */
let builds: Record<TargetBrowser, string>;

beforeAll(async () => {
  builds = await buildExtension();
  // `npm run zip` itself, so the test also proves the script marks its builds as store builds.
  await runFile('npm', ['run', 'zip'], {
    cwd: repositoryRoot,
    env: { ...process.env, RETINUE_OUT_DIR: storeDirectory, RETINUE_STORE: '' },
    maxBuffer: 16 * 1024 * 1024,
  });
}, 300_000);

afterAll(() => {
  rmSync(storeDirectory, { recursive: true, force: true });
});

describe('the Chrome build', () => {
  const directory = extensionOutputDirectory('chrome');

  test('is MV3 with a side panel, an options page in a tab, and localized names', () => {
    const manifest = readManifest(directory);

    expect(manifest.manifest_version).toBe(3);
    expect(manifest.side_panel).toEqual({ default_path: 'sidepanel.html' });
    expect(manifest.options_ui).toEqual({ page: 'options.html', open_in_tab: true });
    expect(manifest.name).toBe('__MSG_extName__');
    expect(manifest.default_locale).toBe('en');
  });

  test('asks for the least permissions: loopback hosts up front, every other origin optional', () => {
    const manifest = readManifest(directory);

    expect(manifest.permissions).toEqual(expect.arrayContaining(['storage', 'scripting', 'sidePanel']));
    // The per-site quota keeps the store under the browser's default quota (docs/trust.md).
    expect(manifest.permissions).not.toContain('unlimitedStorage');
    expect([...(manifest.host_permissions ?? [])].sort()).toEqual(['http://127.0.0.1/*', 'http://localhost/*']);
    expect(manifest.optional_host_permissions).toEqual(['*://*/*']);
  });

  test('carries the fixed development key', () => {
    expect(readManifest(directory).key).toBe(CHROME_MANIFEST_KEY);
  });

  test('builds the page hook and the bridge for runtime registration, not as static content scripts', () => {
    const manifest = readManifest(directory);

    expect(existsSync(path.join(directory, PAGE_HOOK_FILE))).toBe(true);
    expect(existsSync(path.join(directory, BRIDGE_FILE))).toBe(true);
    expect(staticScripts(manifest)).toEqual([]);
  });

  // Sizes of what every worker start and every enabled page pays (docs/performance.md). The
  // background's ceiling keeps a tokenizer's tables out; the bridge's and the page hook's are issue 23's
  // goals: the page hook does only what must happen in the page's world, and the bridge is an unlisted
  // script without webextension-polyfill.
  const gzippedBytes = (file: string): number => gzipSync(readFileSync(path.join(directory, file))).length;
  test('keeps the background worker under 600 KB, with no tokenizer tables', () => {
    expect(readFileSync(path.join(directory, 'background.js')).length).toBeLessThan(600 * 1024);
  });
  test('keeps the bridge at most 15 KB and the page hook at most 3 KB gzipped', () => {
    expect(gzippedBytes(BRIDGE_FILE)).toBeLessThanOrEqual(15 * 1024);
    expect(gzippedBytes(PAGE_HOOK_FILE)).toBeLessThanOrEqual(3 * 1024);
  });
});

describe('the Firefox build', () => {
  const directory = extensionOutputDirectory('firefox');

  test('is MV3 with a sidebar, the gecko id and no Chrome key', () => {
    const manifest = readManifest(directory);

    expect(manifest.browser_specific_settings).toMatchObject({ gecko: { data_collection_permissions: { required: ['none'] } } });
    expect(manifest.manifest_version).toBe(3);
    expect(manifest.sidebar_action).toMatchObject({ default_panel: 'sidepanel.html' });
    expect(manifest.browser_specific_settings).toMatchObject({ gecko: { id: GECKO_ID } });
    expect(manifest).not.toHaveProperty('key');
  });

  test('asks for the same permissions, loopback hosts up front', () => {
    const manifest = readManifest(directory);

    expect(manifest.permissions).toEqual(expect.arrayContaining(['storage', 'scripting']));
    expect(manifest.permissions).not.toContain('unlimitedStorage');
    expect([...(manifest.host_permissions ?? [])].sort()).toEqual(['http://127.0.0.1/*', 'http://localhost/*']);
  });

  test('builds the page hook and the bridge for runtime registration only', () => {
    expect(existsSync(path.join(directory, PAGE_HOOK_FILE))).toBe(true);
    expect(existsSync(path.join(directory, BRIDGE_FILE))).toBe(true);
    expect(staticScripts(readManifest(directory))).toEqual([]);
  });
});

describe('the store zips (npm run zip)', () => {
  const zipNamed = (suffix: string): string => {
    const name = readdirSync(storeDirectory).find((file) => file.endsWith(suffix));
    if (!name) throw new Error(`no zip ending in ${suffix} in ${readdirSync(storeDirectory).join(', ')}`);
    return path.join(storeDirectory, name);
  };

  test('the Chrome zip carries no key and holds the page hook', () => {
    const zip = zipNamed('-chrome.zip');
    const manifest = JSON.parse(readZipEntry(zip, 'manifest.json').toString('utf8')) as Manifest;

    expect(manifest).not.toHaveProperty('key');
    expect(manifest.side_panel).toEqual({ default_path: 'sidepanel.html' });
    expect(listZipEntries(zip)).toEqual(expect.arrayContaining([PAGE_HOOK_FILE, BRIDGE_FILE]));
  });

  test('no zip carries a key, a source map, tests or their fixtures', () => {
    const zips = readdirSync(storeDirectory).filter((file) => file.endsWith('.zip'));
    expect(zips.map((zip) => zip.replace(/^.*-/, ''))).toEqual(expect.arrayContaining(['chrome.zip', 'firefox.zip', 'sources.zip']));
    for (const zip of zips) {
      const entries = listZipEntries(path.join(storeDirectory, zip));
      expect(entries.filter((entry) => entry.endsWith('.map') || /(^|\/)(tests?|test-output|fixtures)\//.test(entry)), zip).toEqual([]);
      if (zip.endsWith('sources.zip')) continue;
      const manifest = JSON.parse(readZipEntry(path.join(storeDirectory, zip), 'manifest.json').toString('utf8')) as Manifest;
      expect(manifest, zip).not.toHaveProperty('key');
      const scripts = entries.filter((entry) => entry.endsWith('.js'));
      // The comment that points at a map, not the bare word (the tokenizer's vocabulary holds it as a token).
      for (const script of scripts) expect(readZipEntry(path.join(storeDirectory, zip), script).toString('utf8'), `${zip}: ${script}`).not.toMatch(/^\/\/[#@] sourceMappingURL=/m);
    }
  });

  test('the Firefox zip carries the gecko id and no key', () => {
    const manifest = JSON.parse(readZipEntry(zipNamed('-firefox.zip'), 'manifest.json').toString('utf8')) as Manifest;

    expect(manifest.browser_specific_settings).toMatchObject({ gecko: { id: GECKO_ID } });
    expect(manifest).not.toHaveProperty('key');
    expect(manifest.manifest_version).toBe(3);
  });
});

describe('the built bundles', () => {
  test('carry no eval-like code: no `new Function(` and no `eval(` (zod runs jitless)', () => {
    const bundles = (['chrome', 'firefox'] as const).flatMap((target) => javascriptFiles(extensionOutputDirectory(target)));
    expect(bundles.length).toBeGreaterThan(4);
    for (const file of bundles) {
      const text = readFileSync(file, 'utf8');
      // Also the constructor under another name, as zod takes it (`const F = Function;`).
      expect(text, file).not.toMatch(/\bnew Function\s*\(|\beval\s*\(|[=(,]\s*Function\s*[;,)]/);
    }
  });
});

function javascriptFiles(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.js'))
    .map((file) => path.join(directory, file));
}

/** A loopback page for the registration checks; closed after the tests. */
async function servePage(): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = http.createServer((_request, response) => {
    response.setHeader('content-type', 'text/html');
    response.end('<!doctype html><title>chat</title><p>chat</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

interface RegisteredScript {
  id: string;
  matches?: string[];
  world?: string;
  runAt?: string;
  persistAcrossSessions?: boolean;
}

/** Browsers start slowly on a busy machine; the checks wait for what they expect, up to this long. */
const patience = { timeout: 30_000, interval: 200 };

const summarize = (scripts: RegisteredScript[]) =>
  scripts.map((script) => ({ id: script.id, matches: script.matches, world: script.world, runAt: script.runAt, persistAcrossSessions: script.persistAcrossSessions }));

describe('the built extension registers the page hook from the settings', () => {
  test('in Chromium: on for an enabled site (port included), with an ON badge; off again with the global switch', async () => {
    const page = await servePage();
    const profileDirectory = mkdtempSync(path.join(tmpdir(), 'retinue-chromium-'));
    const extension = builds.chrome;
    const context = await chromium.launchPersistentContext(profileDirectory, {
      executablePath: '/usr/bin/chromium',
      headless: false,
      ignoreDefaultArgs: ['--disable-extensions'],
      args: ['--headless=new', `--disable-extensions-except=${extension}`, `--load-extension=${extension}`, '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'],
    });
    try {
      const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
      await worker.evaluate((origin) => chrome.storage.local.set({ settings: { version: 1, sites: [{ origin }] } }), page.origin);
      const registered = () => worker.evaluate(() => chrome.scripting.getRegisteredContentScripts()) as Promise<RegisteredScript[]>;

      await expect.poll(async () => summarize(await registered()), patience).toEqual([
        { id: 'retinue-bridge', matches: [`${page.origin}/*`], world: 'ISOLATED', runAt: 'document_start', persistAcrossSessions: true },
        { id: 'retinue-page-hook', matches: [`${page.origin}/*`], world: 'MAIN', runAt: 'document_start', persistAcrossSessions: true },
      ]);
      const tab = await context.newPage();
      await tab.goto(`${page.origin}/`);
      const badge = () =>
        worker.evaluate(async (url) => {
          const [found] = await chrome.tabs.query({ url });
          return found?.id === undefined ? undefined : chrome.action.getBadgeText({ tabId: found.id });
        }, `${page.origin}/`);
      await expect.poll(badge, patience).toBe('ON');

      await worker.evaluate(() => chrome.storage.local.set({ settings: { version: 1, enabled: false } }));
      await expect.poll(registered, patience).toEqual([]);
      await expect.poll(badge, patience).toBe('');
    } finally {
      await context.close();
      await page.close();
      rmSync(profileDirectory, { recursive: true, force: true });
    }
  });

  test('in Firefox: on for an enabled site in the MAIN world (every port of the host), off again', async () => {
    const page = await servePage();
    const uuid = '6f0c8a52-3b1d-4c8e-9a57-2d4e6b7c8f90';
    const firefox = await puppeteer.launch({
      browser: 'firefox',
      executablePath: '/usr/bin/firefox-esr',
      headless: true,
      args: ['--remote-allow-system-access'],
      extraPrefsFirefox: { 'extensions.webextensions.uuids': JSON.stringify({ [GECKO_ID]: uuid }) },
    });
    try {
      await firefox.installExtension(builds.firefox);
      const options = await firefox.newPage();
      void options.goto(`moz-extension://${uuid}/options.html`).catch(() => undefined);
      // Firefox never reports the load of an extension page, and url() stays about:blank: ask the page.
      const location = () => options.evaluate(() => `${document.readyState} ${window.location.href}`).catch(() => 'between documents');
      await expect.poll(location, patience).toBe(`complete moz-extension://${uuid}/options.html`);
      await options.evaluate((origin) => browser.storage.local.set({ settings: { version: 1, sites: [{ origin }] } }), page.origin);
      const registered = () => options.evaluate(() => browser.scripting.getRegisteredContentScripts()) as Promise<RegisteredScript[]>;

      await expect.poll(async () => summarize(await registered()), patience).toEqual([
        { id: 'retinue-bridge', matches: ['http://127.0.0.1/*'], world: 'ISOLATED', runAt: 'document_start', persistAcrossSessions: true },
        { id: 'retinue-page-hook', matches: ['http://127.0.0.1/*'], world: 'MAIN', runAt: 'document_start', persistAcrossSessions: true },
      ]);
      await options.evaluate(() => browser.storage.local.set({ settings: { version: 1, enabled: false } }));
      await expect.poll(registered, patience).toEqual([]);
    } finally {
      await firefox.close();
      await page.close();
    }
  });
});
