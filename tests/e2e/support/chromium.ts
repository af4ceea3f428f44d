import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type CDPSession, type Page, type Worker } from 'playwright-core';
import { CHROME_EXTENSION_ID } from '../../../src/extension/identity';
import { extensionOutputDirectory } from './build-extension';

/** Debian's Chromium (`apt-get install chromium`); never a browser downloaded by Playwright. */
export const chromiumExecutable = process.env.RETINUE_CHROMIUM ?? '/usr/bin/chromium';

export interface ChromiumWithExtension {
  context: BrowserContext;
  /** The id Chromium reports; equals CHROME_EXTENSION_ID from the manifest key. */
  extensionId: string;
  /** The current service worker handle (a fresh one after a restart). */
  readonly serviceWorker: Worker;
  /** Opens `chrome-extension://<id>/<path>` in a new tab, waiting for its load. */
  openExtensionPage(pagePath: string): Promise<Page>;
  /** Opens an ordinary web page in a new tab and waits for its load (as Firefox's `openPage`). */
  openPage(url: string): Promise<Page>;
  /**
   * Stops the extension's service worker (CDP `ServiceWorker.stopAllWorkers`) and waits until it is
   * stopped. The next extension event starts it again; call {@link ChromiumWithExtension.waitForServiceWorker}
   * then for a fresh handle.
   */
  stopServiceWorker(): Promise<void>;
  /** Waits for a running service worker (starting a new one if none) and returns its handle. */
  waitForServiceWorker(): Promise<Worker>;
  /** How many times the service worker started after the first start (seen through CDP). */
  readonly serviceWorkerRestarts: number;
  /** Whether CDP reports the extension's service worker running now (an event may start it without a handle). */
  readonly serviceWorkerRunning: boolean;
  close(): Promise<void>;
}

export interface LaunchChromiumOptions {
  /** The unpacked extension; defaults to `.output/chrome-mv3` (build it first). */
  extensionDirectory?: string;
  /** false opens a visible window (needs a display); default true (`--headless=new`). */
  headless?: boolean;
  /** Extra command-line switches. */
  extraArguments?: string[];
}

/**
 * Launches Debian's Chromium with the built extension in a fresh profile, per TOOLCHAIN.md.
 *
 * @example
 * const browser = await launchChromiumWithExtension();
 * try {
 *   const options = await browser.openExtensionPage('options.html');
 *   await writeSettings(options, { version: 1, sites: [{ origin }] });
 * } finally {
 *   await browser.close();
 * }
 */
export async function launchChromiumWithExtension(options: LaunchChromiumOptions = {}): Promise<ChromiumWithExtension> {
  const extensionDirectory = options.extensionDirectory ?? extensionOutputDirectory('chrome');
  if (!existsSync(chromiumExecutable)) {
    throw new Error(`No Chromium at ${chromiumExecutable}: install Debian's chromium (apt-get install -y chromium) or set RETINUE_CHROMIUM to a Chromium binary.`);
  }
  if (!existsSync(path.join(extensionDirectory, 'manifest.json'))) {
    throw new Error(`No built extension in ${extensionDirectory}: run buildExtension() (or npm run build) first.`);
  }
  const userDataDirectory = await mkdtemp(path.join(tmpdir(), 'retinue-chromium-'));
  const headless = options.headless ?? true;
  // The sandbox cannot start as root (CI, containers); a person's visible browser keeps it.
  const needsNoSandbox = headless || process.getuid?.() === 0;
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(userDataDirectory, {
      executablePath: chromiumExecutable,
      headless: false,
      ignoreDefaultArgs: ['--disable-extensions'],
      args: [
        ...(headless ? ['--headless=new'] : []),
        `--disable-extensions-except=${extensionDirectory}`,
        `--load-extension=${extensionDirectory}`,
        ...(needsNoSandbox ? ['--no-sandbox'] : []),
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
        ...(options.extraArguments ?? []),
      ],
    });
  } catch (error) {
    await rm(userDataDirectory, { recursive: true, force: true });
    throw error;
  }

  const isOurWorker = (worker: Worker) => worker.url().startsWith('chrome-extension://');
  const firstWorker = context.serviceWorkers().find(isOurWorker) ?? (await context.waitForEvent('serviceworker', { predicate: isOurWorker }));
  const extensionId = new URL(firstWorker.url()).host;
  if (extensionId !== CHROME_EXTENSION_ID) {
    await context.close();
    await rm(userDataDirectory, { recursive: true, force: true });
    throw new Error(
      `Chromium loaded the extension as ${extensionId}, expected ${CHROME_EXTENSION_ID}: the manifest key in ` +
        'src/extension/identity.ts and CHROME_EXTENSION_ID disagree (or the build left the key out).',
    );
  }

  const monitor = await watchServiceWorkers(context);
  let currentWorker = firstWorker;

  const openExtensionPage = async (pagePath: string): Promise<Page> => {
    const page = await context.newPage();
    await page.goto(`chrome-extension://${extensionId}/${pagePath.replace(/^\//, '')}`);
    return page;
  };

  const waitForServiceWorker = async (): Promise<Worker> => {
    if (!monitor.running()) await monitor.start(`chrome-extension://${extensionId}/`);
    // Playwright keeps one handle per registration and points it at the restarted worker.
    const alive = context.serviceWorkers().filter(isOurWorker);
    currentWorker = alive[alive.length - 1] ?? (await context.waitForEvent('serviceworker', { predicate: isOurWorker }));
    return currentWorker;
  };

  return {
    context,
    extensionId,
    get serviceWorker() {
      return currentWorker;
    },
    get serviceWorkerRestarts() {
      return monitor.restarts();
    },
    get serviceWorkerRunning() {
      return monitor.running();
    },
    openExtensionPage,
    async openPage(url) {
      const page = await context.newPage();
      await page.goto(url);
      return page;
    },
    stopServiceWorker: () => monitor.stopAll(),
    waitForServiceWorker,
    async close() {
      await monitor.detach();
      await context.close();
      await rm(userDataDirectory, { recursive: true, force: true });
    },
  };
}

interface ServiceWorkerMonitor {
  running(): boolean;
  restarts(): number;
  /** Stops every service worker and resolves once CDP reports them stopped. */
  stopAll(): Promise<void>;
  /** Starts the worker of the given scope (as an extension event would) and resolves once it runs. */
  start(scopeURL: string): Promise<void>;
  detach(): Promise<void>;
}

/**
 * Follows the extension's service worker through CDP on the blank tab the browser starts with (so
 * no extra tab appears; leave that tab open): Playwright does not notice a worker that CDP stopped,
 * so the running state and restarts are counted here.
 * CDP keeps the same version id across restarts; a restart is a version going back to `running`.
 */
async function watchServiceWorkers(context: BrowserContext): Promise<ServiceWorkerMonitor> {
  const controlPage = context.pages()[0] ?? (await context.newPage());
  const session: CDPSession = await context.newCDPSession(controlPage);
  const statusByVersion = new Map<string, string>();
  let starts = 0;
  let waiters: Array<{ wantRunning: boolean; resolve: () => void }> = [];
  const anyRunning = () => [...statusByVersion.values()].includes('running');
  session.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
    for (const version of versions) {
      if (!version.scriptURL.startsWith('chrome-extension://')) continue;
      const before = statusByVersion.get(version.versionId);
      if (version.runningStatus === 'running' && before !== 'running') starts += 1;
      statusByVersion.set(version.versionId, version.runningStatus);
    }
    const running = anyRunning();
    const settled = waiters.filter((waiter) => waiter.wantRunning === running);
    waiters = waiters.filter((waiter) => waiter.wantRunning !== running);
    for (const waiter of settled) waiter.resolve();
  });
  const until = (wantRunning: boolean) =>
    new Promise<void>((resolve) => {
      if (anyRunning() === wantRunning) resolve();
      else waiters.push({ wantRunning, resolve });
    });
  await session.send('ServiceWorker.enable');
  return {
    running: anyRunning,
    // The worker already running when the monitor attached counts as the first start.
    restarts: () => Math.max(0, starts - 1),
    async stopAll() {
      await session.send('ServiceWorker.stopAllWorkers');
      await until(false);
    },
    async start(scopeURL) {
      await session.send('ServiceWorker.startWorker', { scopeURL });
      await until(true);
    },
    async detach() {
      await session.detach().catch(() => undefined);
      await controlPage.close().catch(() => undefined);
    },
  };
}
