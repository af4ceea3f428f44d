/**
 * Children's speed-up, 6 at once, in Debian's Chromium (not a test; `npm run bench -- browser`, or
 * `npx tsx bench/browser-children.bench.ts`): the row `bench/runtime.bench.ts` (a) measures in Node,
 * here in the built extension. A chat turn on the fixture page runs a root (the page's own model)
 * that delegates 6 tasks to a bench worker (rounds: two workspace writes, then task_return), awaits
 * them all and answers; the scripted model server, in this process and apart from the browser,
 * answers every call after 200 ms, while IndexedDB and fetch are the browser's own. The children's
 * time runs from the run's first `task-start` to its last `task-end` in the journal. Turns with
 * `maxRunningChildren` 1, the default (3) and 6 are interleaved, 5 of each; prints each setting's
 * median and range, and the speed-ups one at a time / all at once (ideal 6×) and / default (3×).
 */
import type { Page } from 'playwright-core';
import { peakOverlap } from '../tests/support/scripted-model-server';
import { waitUntil } from '../tests/e2e/support/evaluating-handle';
import { sendFixtureMessage, waitForFixtureReady } from '../tests/e2e/support/fixture-pages';
import { readIndexedDb, readRunStore } from '../tests/e2e/support/settings';
import { switchSitesOn } from '../tests/e2e/support/site-setup';
import { chromiumVersion, median, startBrowserBench, type BrowserBench } from './browser-bench-support';
import { benchWorkerProfile, CALL_DELAY_MS, CHILD_ROUNDS, CHILDREN, isBenchWorker, ROOT_REPLY, scriptChildrenWorkload } from './children-workload';

const REPEATS = 5;
const DEFAULT_RUNNING_CHILDREN = 3;

/** Each setting by the name printed; `undefined` leaves `maxRunningChildren` unset. */
const SETTINGS = [
  { name: 'one at a time (maxRunningChildren 1)', maxRunningChildren: 1 },
  { name: `default (maxRunningChildren unset, ${DEFAULT_RUNNING_CHILDREN})`, maxRunningChildren: undefined },
  { name: `all at once (maxRunningChildren ${CHILDREN})`, maxRunningChildren: CHILDREN },
] as const;
type Setting = (typeof SETTINGS)[number];

/** Writes the settings: the fixture page's origin on, the worker profile, and the setting's limit. */
async function useSetting(bench: BrowserBench, setting: Setting): Promise<void> {
  const defaults = setting.maxRunningChildren === undefined ? {} : { maxRunningChildren: setting.maxRunningChildren };
  await switchSitesOn(bench.options, [bench.fixtures.origins.primary], { profiles: [benchWorkerProfile], defaults });
}

interface MeasuredTurn {
  childrenMilliseconds: number;
  startSpreadMilliseconds: number;
  /** The most model calls open at once as the model server saw them: the workers', and all (the root's too). */
  peakWorkerCalls: number;
  peakCalls: number;
}

/** The id of the newest run once it has ended; throws unless it completed with every child completed. */
async function completedRunId(options: Page, runsBefore: number): Promise<string> {
  const { runs, tasks } = await waitUntil(
    async () => {
      const stored = await readRunStore(options);
      return stored.runs.length > runsBefore && stored.runs[0]?.status !== 'running' ? stored : undefined;
    },
    { description: 'the turn\'s run to end in the run store' },
  );
  const run = runs[0]!;
  const completed = tasks.filter((task) => task.runId === run.id && task.status === 'completed').length;
  if (run.status !== 'completed' || completed !== CHILDREN) throw new Error(`The run ended ${String(run.status)} with ${completed} of ${CHILDREN} tasks completed.`);
  return String(run.id);
}

/** The run's children's time (first task start to last task end) and its start spread, from the journal. */
async function childrenSpans(options: Page, runId: string): Promise<Pick<MeasuredTurn, 'childrenMilliseconds' | 'startSpreadMilliseconds'>> {
  const journal = (await readIndexedDb(options, { store: 'journal' })) as Array<{ runId: string; type: string; time: number }>;
  const times = (type: string) => journal.filter((event) => event.runId === runId && event.type === type).map((event) => event.time);
  const starts = times('task-start');
  const ends = times('task-end');
  return { childrenMilliseconds: Math.max(...ends) - Math.min(...starts), startSpreadMilliseconds: Math.max(...starts) - Math.min(...starts) };
}

/** One turn under the current setting, checked to have run every child to completion under the setting's limit. */
async function measuredTurn(bench: BrowserBench, page: Page, setting: Setting, runsBefore: number): Promise<MeasuredTurn> {
  const requestsBefore = bench.model.requests.length;
  const turn = await sendFixtureMessage(page, 'Split the work.');
  if (turn.status !== 'done' || !turn.reply.includes(ROOT_REPLY)) throw new Error(`A turn ended ${turn.status} with ${JSON.stringify(turn.reply)}, not done with "${ROOT_REPLY}".`);
  const runId = await completedRunId(bench.options, runsBefore);
  const calls = bench.model.requests.slice(requestsBefore);
  const peakWorkerCalls = peakOverlap(calls.filter((request) => isBenchWorker(request)));
  const limit = setting.maxRunningChildren ?? DEFAULT_RUNNING_CHILDREN;
  if (peakWorkerCalls > limit) throw new Error(`${peakWorkerCalls} worker calls ran at once under a limit of ${limit}: the setting was not taken before the turn.`);
  return { ...(await childrenSpans(bench.options, runId)), peakWorkerCalls, peakCalls: peakOverlap(calls) };
}

const seconds = (milliseconds: number) => `${(milliseconds / 1000).toFixed(2)} s`;

function describe(setting: Setting, turns: MeasuredTurn[]): string {
  const children = turns.map((turn) => turn.childrenMilliseconds);
  const spread = median(turns.map((turn) => turn.startSpreadMilliseconds));
  const peak = (name: 'peakWorkerCalls' | 'peakCalls') => median(turns.map((turn) => turn[name]));
  const range = `${(Math.min(...children) / 1000).toFixed(2)}–${seconds(Math.max(...children))}`;
  return `  ${setting.name.padEnd(38)} children ${seconds(median(children))} (${range}), task starts spread over ${spread.toFixed(0)} ms, model calls open together ${peak('peakWorkerCalls')} (${peak('peakCalls')} with the root's)`;
}

const bench = await startBrowserBench('children');
try {
  console.log(chromiumVersion());
  // The root is the page's own model: the one offered agent_delegate.
  scriptChildrenWorkload(bench.model, (request) => request.toolNames.includes('agent_delegate'));
  await useSetting(bench, SETTINGS[2]);
  const page = await bench.chromium.openPage(bench.fixtures.pageUrl('/openai-chat/', {}));
  await waitForFixtureReady(page);
  let runs = 0;
  // One warm-up turn, so the worker's start and first store open do not count.
  await measuredTurn(bench, page, SETTINGS[2], runs++);
  const turns: MeasuredTurn[][] = SETTINGS.map(() => []);
  for (let repeat = 0; repeat < REPEATS; repeat += 1) {
    const order = repeat % 2 === 0 ? [0, 1, 2] : [2, 1, 0];
    for (const index of order) {
      await useSetting(bench, SETTINGS[index]!);
      turns[index]!.push(await measuredTurn(bench, page, SETTINGS[index]!, runs++));
    }
  }
  console.log(`children's speed-up: ${CHILDREN} children × ${CHILD_ROUNDS} rounds, ${CALL_DELAY_MS} ms per model call (${seconds(CHILD_ROUNDS * CALL_DELAY_MS)} of model latency each); median and range of ${REPEATS} interleaved turns each`);
  SETTINGS.forEach((setting, index) => console.log(describe(setting, turns[index]!)));
  const [oneAtATime, byDefault, allAtOnce] = turns.map((each) => median(each.map((turn) => turn.childrenMilliseconds))) as [number, number, number];
  const ratio = oneAtATime / allAtOnce;
  console.log(`  speed-up of the children: ${ratio.toFixed(2)}× with ${CHILDREN} at once (${(ratio / CHILDREN).toFixed(2)} of ideal ${CHILDREN}×), ${(oneAtATime / byDefault).toFixed(2)}× with the default ${DEFAULT_RUNNING_CHILDREN} (ideal ${DEFAULT_RUNNING_CHILDREN}×)`);
  if (bench.model.unmatched.length > 0) console.log(`  note: ${bench.model.unmatched.length} request(s) matched no script.`);
} finally {
  await bench.close();
}
