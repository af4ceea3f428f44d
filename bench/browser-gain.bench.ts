/**
 * What Retinue adds to a direct turn in Debian's Chromium (not a test; `npm run bench -- browser`, or
 * `npx tsx bench/browser-gain.bench.ts`): the OpenAI-shaped fixture page sends the same message on an
 * origin with Retinue switched on (the root answers at once) and on one with it off (the page's
 * request goes straight to the model), in interleaved pairs, against a model that takes 300 ms. Each
 * turn is split where the model server sees the request: before it (what runs ahead of the model
 * call: page hook, bridge, background, store, the host call) and after the model's answer (the reply
 * back into the page). Prints the medians of each part and the difference on − off; then again with
 * 600 runs of other chats stored for the site (stored-runs.ts), as a user who chats daily has them.
 */
import { performance } from 'node:perf_hooks';
import { switchOnPrimarySite } from '../tests/e2e/chat-turn-scenarios';
import { sendFixtureMessage, waitForFixtureReady } from '../tests/e2e/support/fixture-pages';
import { median, startBrowserBench } from './browser-bench-support';
import { copyNewestRunSource } from './stored-runs';

const PAIRS = 7;
const STORED_RUNS = 600;
const MODEL_MS = 300;
const bench = await startBrowserBench('gain');
let requestSeenAt = 0;
bench.model.script(() => {
  requestSeenAt = performance.now();
  return { content: 'The lighthouse keeper nods.', delayMs: MODEL_MS };
});

interface TurnParts {
  total: number;
  beforeModel: number;
  afterModel: number;
}

try {
  const { chromium, fixtures } = bench;
  await switchOnPrimarySite(bench.options, fixtures, bench.model);
  const on = await chromium.openPage(fixtures.pageUrl('/openai-chat/', {}));
  const off = await chromium.openPage(fixtures.pageUrl('/openai-chat/', {}, fixtures.origins.secondary));
  await Promise.all([waitForFixtureReady(on), waitForFixtureReady(off)]);
  const timedTurn = async (page: typeof on): Promise<TurnParts> => {
    requestSeenAt = 0;
    const begin = performance.now();
    const turn = await sendFixtureMessage(page, 'Mara reaches the lighthouse.');
    const end = performance.now();
    if (turn.status !== 'done') throw new Error(`A turn ended ${turn.status}.`);
    if (requestSeenAt === 0) throw new Error('The model server saw no request for a turn.');
    return { total: end - begin, beforeModel: requestSeenAt - begin, afterModel: end - requestSeenAt - MODEL_MS };
  };
  const measurePairs = async (title: string) => {
    // One turn each first: the first turn of a site, or after its store changed, reads more.
    await timedTurn(on);
    await timedTurn(off);
    const turns: Record<'on' | 'off', TurnParts[]> = { on: [], off: [] };
    for (let pair = 0; pair < PAIRS; pair += 1) {
      const order = pair % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const);
      for (const side of order) turns[side].push(await timedTurn(side === 'on' ? on : off));
    }
    const part = (side: 'on' | 'off', name: keyof TurnParts) => median(turns[side].map((turn) => turn[name]));
    console.log(title);
    for (const name of ['total', 'beforeModel', 'afterModel'] as const) {
      const gain = part('on', name) - part('off', name);
      console.log(`  ${name.padEnd(12)} on ${part('on', name).toFixed(1)} ms, off ${part('off', name).toFixed(1)} ms: Retinue adds ${gain.toFixed(1)} ms`);
    }
  };
  await measurePairs(`direct turn, ${MODEL_MS} ms model, median of ${PAIRS} interleaved pairs:`);
  const copied = await bench.options.evaluate(copyNewestRunSource(fixtures.origins.primary, STORED_RUNS));
  await measurePairs(`the same with ${STORED_RUNS} runs of other chats stored for the site (copies of its newest run: ${JSON.stringify(copied)}):`);
} finally {
  await bench.close();
}
