/**
 * What Retinue adds to a direct turn in Debian's Chromium (not a test; `npm run bench -- browser`, or
 * `npx tsx bench/browser-gain.bench.ts`): the OpenAI-shaped fixture page sends the same message on an
 * origin with Retinue switched on (the root answers at once) and on one with it off (the page's
 * request goes straight to the model), in interleaved pairs, against a model that takes 300 ms. Each
 * turn is split where the model server sees the request: before it (what runs ahead of the model
 * call: page hook, bridge, background, store, the host call) and after the model's answer (the reply
 * back into the page). Prints the medians of each part and the difference on − off.
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
const MODEL_MS = 300;
const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));
const scratch = mkdtempSync(path.join(tmpdir(), 'retinue-bench-gain-'));
execFileSync(path.join(repositoryRoot, 'node_modules/.bin/wxt'), ['build'], { cwd: repositoryRoot, env: { ...process.env, RETINUE_OUT_DIR: scratch }, stdio: 'ignore' });

let requestSeenAt = 0;
const model = await startScriptedModelServer();
model.script(() => {
  requestSeenAt = performance.now();
  return { content: 'The lighthouse keeper nods.', delayMs: MODEL_MS };
});
const fixtures = await startFixtureServer({ modelBaseUrl: model.baseURL });
const chromium = await launchChromiumWithExtension({ extensionDirectory: path.join(scratch, 'chrome-mv3') });
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

interface TurnParts {
  total: number;
  beforeModel: number;
  afterModel: number;
}

try {
  const options = await chromium.openExtensionPage('options.html');
  await switchOnPrimarySite(options, fixtures, model);
  const on = await chromium.context.newPage();
  await on.goto(fixtures.pageUrl('/openai-chat/', {}));
  const off = await chromium.context.newPage();
  await off.goto(fixtures.pageUrl('/openai-chat/', {}, fixtures.origins.secondary));
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
  await timedTurn(on);
  await timedTurn(off);
  const turns: Record<'on' | 'off', TurnParts[]> = { on: [], off: [] };
  for (let pair = 0; pair < PAIRS; pair += 1) {
    const order = pair % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const);
    for (const side of order) turns[side].push(await timedTurn(side === 'on' ? on : off));
  }
  const part = (side: 'on' | 'off', name: keyof TurnParts) => median(turns[side].map((turn) => turn[name]));
  console.log(`direct turn, ${MODEL_MS} ms model, median of ${PAIRS} interleaved pairs:`);
  for (const name of ['total', 'beforeModel', 'afterModel'] as const) {
    const gain = part('on', name) - part('off', name);
    console.log(`  ${name.padEnd(12)} on ${part('on', name).toFixed(1)} ms, off ${part('off', name).toFixed(1)} ms: Retinue adds ${gain.toFixed(1)} ms`);
  }
} finally {
  await chromium.close();
  await fixtures.close();
  await model.close();
  rmSync(scratch, { recursive: true, force: true });
}
