/**
 * The first turn after a worker stop against a warm turn, in Debian's Chromium (not a test;
 * `npm run bench -- browser`, or `npx tsx bench/browser-turn.bench.ts`). Builds the Chrome extension
 * into a scratch folder, switches the OpenAI-shaped fixture page's origin on, and sends direct turns
 * (the root answers at once from the scripted model on loopback) from the page: each pair is one
 * turn right after another (warm) and one right after CDP stopped the service worker (cold), so the
 * cold turn waits for the worker to start. Two more turns of each round follow a page load and a
 * worker stop, the second with a key typed `TYPING_MS` before sending, as anyone writing a message
 * does: the bridge starts the worker on that key (src/bridge/warm-up-on-input.ts). Prints the
 * medians and their differences.
 */
import { performance } from 'node:perf_hooks';
import { switchOnPrimarySite } from '../tests/e2e/chat-turn-scenarios';
import { sendFixtureMessage, waitForFixtureReady } from '../tests/e2e/support/fixture-pages';
import { median, startBrowserBench } from './browser-bench-support';

const ROUNDS = 7;
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
  // A browser stops the worker after 30 s idle, longer than the bridge waits between two warm-ups
  // (20 s); this bench stops it sooner, so a typed turn's page is loaded afresh, as after such a
  // pause, and so is the page of a cold turn it is compared with.
  const freshPage = async (): Promise<void> => {
    await page.reload();
    await waitForFixtureReady(page);
  };
  const series = { warm: [] as number[], cold: [] as number[], freshCold: [] as number[], typed: [] as number[] };
  for (let round = 0; round < ROUNDS; round += 1) {
    series.warm.push(await timedTurn());
    await chromium.stopServiceWorker();
    series.cold.push(await timedTurn());
    await freshPage();
    await chromium.stopServiceWorker();
    series.freshCold.push(await timedTurn());
    await freshPage();
    await chromium.stopServiceWorker();
    await page.focus('#input');
    await page.keyboard.press('Shift');
    await new Promise((resolve) => setTimeout(resolve, TYPING_MS));
    series.typed.push(await timedTurn());
  }
  const [warm, cold, freshCold, typed] = [median(series.warm), median(series.cold), median(series.freshCold), median(series.typed)];
  const over = (turn: number, base: number) => `+${(turn - base).toFixed(0)} ms (${(turn / base).toFixed(2)}×)`;
  console.log(`direct turn, medians of ${ROUNDS}: warm worker ${warm.toFixed(0)} ms, after a worker stop ${cold.toFixed(0)} ms`);
  console.log(`a stopped worker adds ${over(cold, warm)}`);
  console.log(`a page loaded afresh, then a worker stop: ${freshCold.toFixed(0)} ms, ${over(freshCold, warm)} over a warm turn`);
  console.log(`the same with a key typed ${TYPING_MS} ms before sending (the bridge starts the worker): ${typed.toFixed(0)} ms, ${over(typed, warm)} over a warm turn, ${(freshCold - typed).toFixed(0)} ms less than without the key`);
} finally {
  await bench.close();
}
