/**
 * The first turn after a worker stop against a warm turn, in Debian's Chromium (not a test;
 * `npm run bench -- browser`, or `npx tsx bench/browser-turn.bench.ts`). Builds the Chrome extension
 * into a scratch folder, switches the OpenAI-shaped fixture page's origin on, and sends direct turns
 * (the root answers at once from the scripted model on loopback) from the page: each pair is one
 * turn right after another (warm) and one right after CDP stopped the service worker (cold), so the
 * cold turn waits for the worker to start. A third turn of each round follows a worker stop too, but
 * the user types a key `TYPING_MS` before sending, as anyone writing a message does: the bridge starts
 * the worker on that key (src/bridge/warm-up-on-input.ts). Prints the medians and their differences.
 */
import { performance } from 'node:perf_hooks';
import { switchOnPrimarySite } from '../tests/e2e/chat-turn-scenarios';
import { sendFixtureMessage, waitForFixtureReady } from '../tests/e2e/support/fixture-pages';
import { median, startBrowserBench } from './browser-bench-support';

const PAIRS = 7;
/** How long before sending the user's key comes; writing a message takes seconds. */
const TYPING_MS = 1_000;
const bench = await startBrowserBench('turn');
bench.model.script(() => ({ content: 'The lighthouse keeper nods.' }));

try {
  const { chromium, fixtures } = bench;
  await switchOnPrimarySite(bench.options, fixtures, bench.model);
  const page = await chromium.openPage(fixtures.pageUrl('/openai-chat/', {}));
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
  const typed: number[] = [];
  for (let pair = 0; pair < PAIRS; pair += 1) {
    warm.push(await timedTurn());
    await chromium.stopServiceWorker();
    cold.push(await timedTurn());
    // A browser stops the worker after 30 s idle, longer than the bridge waits between two warm-ups
    // (20 s); this bench stops it sooner, so the page is loaded afresh, as after such a pause.
    await page.reload();
    await waitForFixtureReady(page);
    await chromium.stopServiceWorker();
    await page.focus('#input');
    await page.keyboard.press('Shift');
    await new Promise((resolve) => setTimeout(resolve, TYPING_MS));
    typed.push(await timedTurn());
  }
  const warmMedian = median(warm);
  const coldMedian = median(cold);
  const typedMedian = median(typed);
  console.log(`direct turn, median of ${PAIRS}: warm worker ${warmMedian.toFixed(0)} ms, after a worker stop ${coldMedian.toFixed(0)} ms`);
  console.log(`a stopped worker adds ${(coldMedian - warmMedian).toFixed(0)} ms (${(coldMedian / warmMedian).toFixed(2)}×)`);
  console.log(
    `after a worker stop with a key typed ${TYPING_MS} ms before sending: ${typedMedian.toFixed(0)} ms, ${(typedMedian - warmMedian).toFixed(0)} ms over a warm turn (${(typedMedian / warmMedian).toFixed(2)}×)`,
  );
} finally {
  await bench.close();
}
