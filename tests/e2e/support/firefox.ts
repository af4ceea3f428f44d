import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { GECKO_ID } from '../../../src/extension/identity';
import { extensionOutputDirectory } from './build-extension';
import { newFirefoxProfileDirectory } from './firefox-profile-template';

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
  openExtensionPage(pagePath: string, options?: OpenPageOptions): Promise<Page>;
  /** Opens an ordinary web page in a new tab and waits for its load. */
  openPage(url: string): Promise<Page>;
  close(): Promise<void>;
}

export interface OpenPageOptions {
  /**
   * The size of the page's window, for a page shown narrow like the sidebar. Set through the window's
   * bounds, never through viewport emulation (`page.setViewport` sends a WebDriver BiDi command that
   * some Firefox ESR builds do not know); a build that cannot size windows keeps its default size.
   */
  windowSize?: { width: number; height: number };
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
  const profileDirectory = await newFirefoxProfileDirectory();
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: firefoxExecutable,
    headless: true,
    userDataDir: profileDirectory,
    // No viewport emulation anywhere: puppeteer would send emulation.setScreenOrientationOverride with
    // every new page, and Debian 12's firefox-esr 140 does not know that command. Windows are sized
    // by the window size instead.
    defaultViewport: null,
    args: ['--remote-allow-system-access', `--window-size=${DEFAULT_WINDOW.width},${DEFAULT_WINDOW.height}`],
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
    async openExtensionPage(pagePath, pageOptions = {}) {
      const { windowSize } = pageOptions;
      const page = await explainingProtocolFailures(browser, () =>
        windowSize ? browser.newPage({ type: 'window', windowBounds: windowSize }) : browser.newPage(),
      );
      const target = `${origin}/${pagePath.replace(/^\//, '')}`;
      // The navigation to a moz-extension page never resolves; start it and watch the page instead.
      page.goto(target).catch(() => undefined);
      await waitForLoadedLocation(page, target);
      return page;
    },
    async openPage(url) {
      return explainingProtocolFailures(browser, async () => {
        const page = await browser.newPage();
        await page.goto(url);
        return page;
      });
    },
    close,
  };
}

/** The size of every window the suite opens unless a page asks for another. */
const DEFAULT_WINDOW = { width: 1280, height: 900 };

/**
 * Runs one step against the browser and, when Firefox refuses a protocol command it does not know,
 * rethrows with the browser's name and version, so a machine with another Firefox build says plainly
 * what is missing instead of failing somewhere inside puppeteer.
 */
export async function explainingProtocolFailures<T>(browser: Browser, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!/unknown command|unsupported operation/i.test(message)) throw error;
    const version = await browser.version().catch(() => 'an unknown version');
    throw new Error(
      `${version} (${firefoxExecutable}) does not support a WebDriver BiDi command the end-to-end suite used: ${message}. ` +
        'The suite must only use commands every Debian firefox-esr build knows; change the step that sent it.',
      { cause: error },
    );
  }
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
