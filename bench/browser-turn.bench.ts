/**
 * The first turn after a worker stop against a warm turn, in Debian's Chromium (not a test;
 * `npm run bench -- browser`, or `npx tsx bench/browser-turn.bench.ts`). Builds the Chrome extension
 * into a scratch folder, switches the OpenAI-shaped fixture page's origin on, and sends direct turns
 * (the root answers at once from the scripted model on loopback) from the page: each pair is one
 * turn right after another (warm) and one right after CDP stopped the service worker (cold), so the
 * cold turn waits for the worker to start. Prints the medians and their difference.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { startScriptedModelServer } from '../tests/support/scripted-model-server';
import { switchOnPrimarySite } from '../tests/e2e/chat-turn-scenarios';
import { launchChromiumWithExtension } from '../tests/e2e/support/chromium';
import { sendFixtureMessage, waitForFixtureReady } from '../tests/e2e/support/fixture-pages';
import { startFixtureServer } from '../tests/e2e/support/fixture-server';

const PAIRS = 7;
const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));
const scratch = mkdtempSync(path.join(tmpdir(), 'retinue-bench-turn-'));
execFileSync(path.join(repositoryRoot, 'node_modules/.bin/wxt'), ['build'], { cwd: repositoryRoot, env: { ...process.env, RETINUE_OUT_DIR: scratch }, stdio: 'ignore' });

const model = await startScriptedModelServer();
model.script(() => ({ content: 'The lighthouse keeper nods.' }));
const fixtures = await startFixtureServer({ modelBaseUrl: model.baseURL });
const chromium = await launchChromiumWithExtension({ extensionDirectory: path.join(scratch, 'chrome-mv3') });
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

try {
  const options = await chromium.openExtensionPage('options.html');
  await switchOnPrimarySite(options, fixtures, model);
  const page = await chromium.context.newPage();
  await page.goto(fixtures.pageUrl('/openai-chat/', {}));
  await waitForFixtureReady(page);
  const timedTurn = async (): Promise<number> => {
    const begin = performance.now();
    const turn = await sendFixtureMessage(page, 'Mara reaches the lighthouse.');
    if (turn.status !== 'done') throw new Error(`A turn ended ${turn.status}.`);
    return performance.now() - begin;
  };
  await timedTurn();
  const warm: number[] = [];
  const cold: number[] = [];
  for (let pair = 0; pair < PAIRS; pair += 1) {
    warm.push(await timedTurn());
    await chromium.stopServiceWorker();
    cold.push(await timedTurn());
  }
  const warmMedian = median(warm);
  const coldMedian = median(cold);
  console.log(`direct turn, median of ${PAIRS}: warm worker ${warmMedian.toFixed(0)} ms, after a worker stop ${coldMedian.toFixed(0)} ms`);
  console.log(`a stopped worker adds ${(coldMedian - warmMedian).toFixed(0)} ms (${(coldMedian / warmMedian).toFixed(2)}×)`);
} finally {
  await chromium.close();
  await fixtures.close();
  await model.close();
  rmSync(scratch, { recursive: true, force: true });
}
