import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { GECKO_ID } from '../../../src/extension/identity';
import { extensionOutputDirectory } from './build-extension';

/** Debian's Firefox ESR (`apt-get install firefox-esr`). */
export const firefoxExecutable = process.env.RETINUE_FIREFOX ?? '/usr/bin/firefox-esr';

/** The internal UUID tests give the add-on, so its pages live at a known `moz-extension://` origin. */
export const FIREFOX_EXTENSION_UUID = '5e7d1a3c-2b4f-4c6e-9a80-7f1e2d3c4b5a';

export interface FirefoxWithExtension {
  browser: Browser;
  /** The add-on id (browser_specific_settings.gecko.id). */
  addonId: string;
  /** The internal UUID: extension pages are at `moz-extension://<uuid>/...`. */
  extensionUuid: string;
  /**
   * Opens `moz-extension://<uuid>/<path>` in a new tab and resolves once the page has loaded
   * (Firefox never reports that load to `page.goto`, so this polls `location.href`). The returned
   * page's `url()` stays `about:blank`; read `location.href` in the page instead.
   */
  openExtensionPage(pagePath: string): Promise<Page>;
  /** Opens an ordinary web page in a new tab and waits for its load. */
  openPage(url: string): Promise<Page>;
  close(): Promise<void>;
}

export interface LaunchFirefoxOptions {
  /** The unpacked MV3 extension; defaults to `.output/firefox-mv3` (build it first). */
  extensionDirectory?: string;
  /** Extra Firefox preferences. */
  preferences?: Record<string, unknown>;
}

/**
 * Launches Debian's Firefox ESR headless with the built MV3 add-on installed temporarily, per
 * TOOLCHAIN.md (`--remote-allow-system-access`, a fixed internal UUID). Temporarily installed MV3
 * add-ons get the `host_permissions` of their manifest granted at install (checked: localhost and
 * 127.0.0.1 are granted), so no permission pref is needed for loopback sites.
 *
 * @example
 * const firefox = await launchFirefoxWithExtension();
 * try {
 *   const options = await firefox.openExtensionPage('options.html');
 *   await writeSettings(options, { version: 1 });
 * } finally {
 *   await firefox.close();
 * }
 */
export async function launchFirefoxWithExtension(options: LaunchFirefoxOptions = {}): Promise<FirefoxWithExtension> {
  const extensionDirectory = options.extensionDirectory ?? extensionOutputDirectory('firefox');
  if (!existsSync(firefoxExecutable)) {
    throw new Error(`No Firefox at ${firefoxExecutable}: install Debian's firefox-esr (apt-get install -y firefox-esr) or set RETINUE_FIREFOX.`);
  }
  if (!existsSync(path.join(extensionDirectory, 'manifest.json'))) {
    throw new Error(`No built add-on in ${extensionDirectory}: run buildExtension() (or npm run build:firefox) first.`);
  }
  const profileDirectory = await mkdtemp(path.join(tmpdir(), 'retinue-firefox-'));
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: firefoxExecutable,
    headless: true,
    userDataDir: profileDirectory,
    args: ['--remote-allow-system-access'],
    extraPrefsFirefox: {
      'extensions.webextensions.uuids': JSON.stringify({ [GECKO_ID]: FIREFOX_EXTENSION_UUID }),
      ...options.preferences,
    },
  });
  const close = async () => {
    await browser.close().catch(() => undefined);
    await rm(profileDirectory, { recursive: true, force: true });
  };
  try {
    const addonId = await browser.installExtension(extensionDirectory);
    if (addonId !== GECKO_ID) {
      throw new Error(`Firefox installed the add-on as ${addonId}, expected ${GECKO_ID}: check browser_specific_settings.gecko.id in wxt.config.ts.`);
    }
  } catch (error) {
    await close();
    throw error;
  }
  const origin = `moz-extension://${FIREFOX_EXTENSION_UUID}`;

  return {
    browser,
    addonId: GECKO_ID,
    extensionUuid: FIREFOX_EXTENSION_UUID,
    async openExtensionPage(pagePath) {
      const page = await browser.newPage();
      const target = `${origin}/${pagePath.replace(/^\//, '')}`;
      // The navigation to a moz-extension page never resolves; start it and watch the page instead.
      page.goto(target).catch(() => undefined);
      await waitForLoadedLocation(page, target);
      return page;
    },
    async openPage(url) {
      const page = await browser.newPage();
      await page.goto(url);
      return page;
    },
    close,
  };
}

/** Polls until the page shows `target` (ignoring the hash) and has finished loading. */
async function waitForLoadedLocation(page: Page, target: string, timeoutMs = 15_000): Promise<void> {
  const wanted = target.split('#')[0];
  const deadline = Date.now() + timeoutMs;
  let seen = '';
  while (Date.now() < deadline) {
    try {
      const state = await page.evaluate(() => ({ href: location.href, readyState: document.readyState }));
      seen = state.href;
      if (state.href.split('#')[0] === wanted && state.readyState === 'complete') return;
    } catch {
      // The page is between documents; try again.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Firefox did not load ${target} within ${timeoutMs} ms (last location: ${seen || 'none'}).`);
}
