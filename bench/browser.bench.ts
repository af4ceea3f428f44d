/**
 * Worker cold start in Debian's Chromium (not a test; `npm run bench -- browser`, or
 * `npx tsx bench/browser.bench.ts`). Builds the Chrome extension into a scratch folder, loads it
 * next to a trivial extension (a manifest and an empty worker), and times, for each in turn, a stop
 * of every service worker (CDP `ServiceWorker.stopAllWorkers`) followed by a start of that
 * extension's worker (`ServiceWorker.startWorker`) until CDP reports it running, which is after its
 * script has been evaluated. Pairs are interleaved so both sides share the machine's load; the
 * ratio of the medians is the figure (issue 23's goal: at most 2×).
 *
 * `RETINUE_BENCH_COMPARE=<a built chrome-mv3 folder>` (another commit's build) adds that build to
 * each round, loaded without its key, so two builds are compared in the same run.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { chromium, type CDPSession } from 'playwright-core';

const PAIRS = 9;
const chromiumExecutable = process.env.RETINUE_CHROMIUM ?? '/usr/bin/chromium';
const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));
const scratch = mkdtempSync(path.join(tmpdir(), 'retinue-bench-browser-'));
const retinueDirectory = path.join(scratch, 'retinue');
const trivialDirectory = path.join(scratch, 'trivial');
const compareSource = process.env.RETINUE_BENCH_COMPARE;
const compareDirectory = path.join(scratch, 'compare');

if (!existsSync(chromiumExecutable)) {
  console.log(`No Chromium at ${chromiumExecutable}: install Debian's chromium or set RETINUE_CHROMIUM.`);
  process.exit(1);
}

execFileSync(path.join(repositoryRoot, 'node_modules/.bin/wxt'), ['build'], {
  cwd: repositoryRoot,
  env: { ...process.env, RETINUE_OUT_DIR: retinueDirectory },
  stdio: 'ignore',
});
const builtDirectory = path.join(retinueDirectory, 'chrome-mv3');
execFileSync('mkdir', ['-p', trivialDirectory]);
writeFileSync(
  path.join(trivialDirectory, 'manifest.json'),
  JSON.stringify({ manifest_version: 3, name: 'Trivial worker', version: '1.0', background: { service_worker: 'background.js' } }),
);
writeFileSync(path.join(trivialDirectory, 'background.js'), "self.addEventListener('install', () => undefined);\n");
if (compareSource) {
  // Without the development key, so it gets an id of its own next to this build.
  cpSync(compareSource, compareDirectory, { recursive: true });
  const { key: _key, ...manifest } = JSON.parse(readFileSync(path.join(compareDirectory, 'manifest.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(path.join(compareDirectory, 'manifest.json'), JSON.stringify({ ...manifest, version_name: 'compared build' }));
}
const loaded = [builtDirectory, trivialDirectory, ...(compareSource ? [compareDirectory] : [])].join(',');

const context = await chromium.launchPersistentContext(path.join(scratch, 'profile'), {
  executablePath: chromiumExecutable,
  headless: false,
  ignoreDefaultArgs: ['--disable-extensions'],
  args: [
    '--headless=new',
    `--disable-extensions-except=${loaded}`,
    `--load-extension=${loaded}`,
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
  ],
});

/** The extension ids, from the workers' urls once both have started. */
async function extensionIds(): Promise<string[]> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const ids = [...new Set(context.serviceWorkers().map((worker) => new URL(worker.url()).host))];
    if (ids.length >= (compareSource ? 3 : 2)) return ids;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('Not every extension started a worker within 15 s.');
}

type VersionUpdate = { versions: { versionId: string; scriptURL: string; runningStatus: string }[] };

interface WorkerWatch {
  /** Resolves once every version of the extension whose scope starts with `prefix` reports `status`. */
  until(prefix: string, status: 'running' | 'stopped', what: string): Promise<void>;
  isRunning(prefix: string): boolean;
}

/** How long a worker may take to report a stop or a start before the bench gives up with a message. */
const REPORT_TIMEOUT_MS = 20_000;

/**
 * The workers' last reported states, from CDP's updates. A wait checks the state it already has
 * first: a stop still under way after `stopAllWorkers` answered, or a worker an event woke, would
 * otherwise leave a waiter for an update that never comes (the bench once hung so under load).
 */
function watchWorkers(session: CDPSession): WorkerWatch {
  const versions = new Map<string, { scriptURL: string; runningStatus: string }>();
  let waiters: { check: () => boolean; resolve: () => void }[] = [];
  const statusesOf = (prefix: string) => [...versions.values()].filter((version) => version.scriptURL.startsWith(prefix)).map((version) => version.runningStatus);
  session.on('ServiceWorker.workerVersionUpdated', (update: VersionUpdate) => {
    for (const version of update.versions) versions.set(version.versionId, version);
    waiters = waiters.filter((waiter) => {
      if (!waiter.check()) return true;
      waiter.resolve();
      return false;
    });
  });
  return {
    isRunning: (prefix) => statusesOf(prefix).includes('running'),
    until(prefix, status, what) {
      const check = () => {
        const statuses = statusesOf(prefix);
        return status === 'running' ? statuses.includes('running') : statuses.every((each) => each === 'stopped');
      };
      return new Promise<void>((resolve, reject) => {
        if (check()) return resolve();
        const timer = setTimeout(() => reject(new Error(`${what}: CDP reported no ${status} worker within ${REPORT_TIMEOUT_MS / 1000} s.`)), REPORT_TIMEOUT_MS);
        waiters.push({ check, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
  };
}

async function coldStart(session: CDPSession, workers: WorkerWatch, id: string): Promise<number> {
  const scope = `chrome-extension://${id}/`;
  // A worker may wake on its own after a stop (an event of its extension's): stop it again, a few times.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    await session.send('ServiceWorker.stopAllWorkers');
    await workers.until(scope, 'stopped', `Stopping ${scope}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    if (!workers.isRunning(scope)) break;
  }
  if (workers.isRunning(scope)) throw new Error(`The worker of ${scope} kept starting on its own after a stop; a cold start cannot be timed.`);
  const begin = performance.now();
  await session.send('ServiceWorker.startWorker', { scopeURL: scope });
  await workers.until(scope, 'running', `Starting ${scope}`);
  return performance.now() - begin;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

try {
  const ids = await extensionIds();
  const page = await context.newPage();
  const session = await context.newCDPSession(page);
  const workers = watchWorkers(session);
  await session.send('ServiceWorker.enable');
  const manifests = await Promise.all(
    ids.map(async (id) => {
      const worker = context.serviceWorkers().find((candidate) => candidate.url().startsWith(`chrome-extension://${id}/`));
      const manifest = worker ? await worker.evaluate(() => chrome.runtime.getManifest()) : { name: '' };
      return { id, name: manifest.name, compared: manifest.version_name === 'compared build' };
    }),
  );
  const trivialId = manifests.find((entry) => entry.name === 'Trivial worker')?.id;
  const comparedId = manifests.find((entry) => entry.compared)?.id;
  const ourId = manifests.find((entry) => entry.id !== trivialId && !entry.compared)?.id;
  if (!trivialId || !ourId || (compareSource && !comparedId)) throw new Error('Could not tell the extensions apart.');

  const ours: number[] = [];
  const trivial: number[] = [];
  const compared: number[] = [];
  await coldStart(session, workers, ourId);
  await coldStart(session, workers, trivialId);
  if (comparedId) await coldStart(session, workers, comparedId);
  for (let pair = 0; pair < PAIRS; pair += 1) {
    ours.push(await coldStart(session, workers, ourId));
    trivial.push(await coldStart(session, workers, trivialId));
    if (comparedId) compared.push(await coldStart(session, workers, comparedId));
  }
  const ourMedian = median(ours);
  const trivialMedian = median(trivial);
  console.log(`worker cold start, median of ${PAIRS}: Retinue ${ourMedian.toFixed(1)} ms, trivial extension ${trivialMedian.toFixed(1)} ms`);
  console.log(`ratio ${(ourMedian / trivialMedian).toFixed(2)}× (goal ≤ 2×)`);
  if (comparedId) {
    const comparedMedian = median(compared);
    console.log(`compared build (${compareSource}): ${comparedMedian.toFixed(1)} ms, ratio ${(comparedMedian / trivialMedian).toFixed(2)}×`);
  }
} finally {
  await context.close();
  rmSync(scratch, { recursive: true, force: true });
}

declare const chrome: { runtime: { getManifest(): { name: string; version_name?: string } } };
