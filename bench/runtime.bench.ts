/**
 * The runtime benchmark, printed from one run against the scripted model server:
 * (a) parallel speed-up of the scheduler over running children one at a time (the seed's behaviour),
 *     the server on a thread of its own, beside the same calls made bare (bare-calls.ts), the floor;
 * (b) overhead per model round at zero model latency, against the same tool loop in @openai/agents,
 *     the server in-process.
 * Every number is a ratio against a baseline measured here, in the same run.
 */
// First, as in every entry point: zod runs jitless, as it must in the extension (no eval under its CSP).
import '../src/zod-jitless';
import 'fake-indexeddb/auto';
import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled, tool } from '@openai/agents';
import { IDBFactory } from 'fake-indexeddb';
import OpenAI from 'openai';
import { z } from 'zod';
import { createModelResolver } from '../src/model/model-resolver';
import { resolveProfiles } from '../src/profiles/built-in-profiles';
import { createAgentRuntime } from '../src/runtime/create-agent-runtime';
import { defaultsSchema, profileSchema, type SettingsDefaults } from '../src/settings/schema';
import { openRunStore } from '../src/store/idb-run-store';
import type { RunStore } from '../src/store/run-store';
import type { PromptSnapshot } from '../src/hosts/prompt-snapshot';
import { startScriptedModelServer, type ScriptedModelServer } from '../tests/support/scripted-model-server';
import { benchWorkerProfile, CALL_DELAY_MS, CHILD_ROUNDS, CHILDREN } from './children-workload';
import { startChildrenServerThread } from './model-server-thread';
import { timeBareCalls, type BareCallTimes } from './bare-calls';

const LOOP_ROUNDS = 50;
const LOOP_REPEATS = 11;
/** Each setting of (a) this many times; one run each moved the figure by ±0.02 of ideal between runs. */
const PARALLEL_REPEATS = 5;

const PARALLEL_MARKER = '[[bench-parallel]]';
const LOOP_MARKER = '[[bench-loop]]';

const workerProfile = profileSchema.parse(benchWorkerProfile);
const looperProfile = profileSchema.parse({
  id: 'bench-looper',
  name: 'Bench looper',
  description: 'Lists the workspace many times. For the benchmark only.',
  systemPrompt: `${LOOP_MARKER} List the workspace until told otherwise.`,
  tools: { allow: ['workspace.list'] },
  delegation: { canDelegate: false, callable: false },
  budget: { maxRounds: 100, maxToolCalls: 500 },
});
const profiles = resolveProfiles({ profiles: [workerProfile, looperProfile] });

function scriptLoop(server: ScriptedModelServer): void {
  server.script((request) => {
    if (!request.systemText.includes(LOOP_MARKER)) return undefined;
    return request.toolResultCount < LOOP_ROUNDS ? { toolCalls: [{ name: 'workspace_list', arguments: {} }] } : { content: 'Listed.' };
  });
}

interface MeasuredRun {
  milliseconds: number;
  /** From the first task start to the last task end, from the journal. */
  childrenMilliseconds: number;
  /** From the first task start to the last (the root's delegate calls of one turn are stored in one step). */
  startSpreadMilliseconds: number;
  /** Store calls by method: how many, and the time from call to answer summed over them. */
  storeCalls: Map<string, { count: number; milliseconds: number }>;
}

/** The store with every call's time from call to answer added to `calls`, by method. */
function timedStore(store: RunStore, calls: MeasuredRun['storeCalls']): RunStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      return (...args: unknown[]) => {
        const started = performance.now();
        const result = method(...args);
        if (!(result instanceof Promise)) return result;
        return result.finally(() => {
          const entry = calls.get(String(property)) ?? { count: 0, milliseconds: 0 };
          calls.set(String(property), { count: entry.count + 1, milliseconds: entry.milliseconds + performance.now() - started });
        });
      };
    },
  });
}

function describeStoreCalls(calls: MeasuredRun['storeCalls']): string {
  return [...calls]
    .sort(([, left], [, right]) => right.milliseconds - left.milliseconds)
    .slice(0, 4)
    .map(([name, entry]) => `${name} ${entry.count}× ${(entry.milliseconds / entry.count).toFixed(1)} ms`)
    .join(', ');
}

async function runRetinue(server: { baseURL: string }, options: { defaults: Partial<SettingsDefaults>; snapshot: PromptSnapshot; rootProfileId?: string }): Promise<MeasuredRun> {
  const openedStore = await openRunStore({ name: 'bench', indexedDB: new IDBFactory() });
  const storeCalls: MeasuredRun['storeCalls'] = new Map();
  const store = timedStore(openedStore, storeCalls);
  try {
    const runtime = createAgentRuntime({ store, profiles, defaults: defaultsSchema.parse(options.defaults) });
    const resolveModel = createModelResolver({ connections: [], host: { label: 'bench', baseURL: server.baseURL, apiKey: 'bench', model: 'scripted-model' } });
    const started = performance.now();
    const outcome = await runtime.startRun({ origin: 'runner:', adapter: 'runner', snapshot: options.snapshot, resolveModel, ...(options.rootProfileId ? { rootProfileId: options.rootProfileId } : {}) });
    const milliseconds = performance.now() - started;
    if (outcome.run.status !== 'completed') throw new Error(`The benchmark run ended ${outcome.run.status}: ${outcome.run.error?.message ?? 'no reason'}`);
    const journal = await store.readJournal(outcome.run.id);
    const starts = journal.filter((event) => event.type === 'task-start').map((event) => event.time);
    const ends = journal.filter((event) => event.type === 'task-end').map((event) => event.time);
    const childrenMilliseconds = starts.length > 0 ? Math.max(...ends) - Math.min(...starts) : 0;
    const startSpreadMilliseconds = starts.length > 0 ? Math.max(...starts) - Math.min(...starts) : 0;
    return { milliseconds, childrenMilliseconds, startSpreadMilliseconds, storeCalls };
  } finally {
    openedStore.close();
  }
}

async function runAgentsSdk(server: ScriptedModelServer): Promise<number> {
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'bench', maxRetries: 0 });
  const agent = new Agent({
    name: 'Bench looper',
    instructions: `${LOOP_MARKER} List the workspace until told otherwise.`,
    model: new OpenAIChatCompletionsModel(client, 'scripted-model'),
    tools: [tool({ name: 'workspace_list', description: 'List the workspace.', parameters: z.object({}), execute: async () => 'scratch/\nsummaries/' })],
  });
  const started = performance.now();
  const result = await run(agent, 'Go.', { stream: true, maxTurns: LOOP_ROUNDS + 5 });
  await result.completed;
  const milliseconds = performance.now() - started;
  if (result.finalOutput !== 'Listed.') throw new Error(`The @openai/agents run ended with ${JSON.stringify(result.finalOutput)}.`);
  return milliseconds;
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const seconds = (milliseconds: number) => `${(milliseconds / 1000).toFixed(2)} s`;

/** The run with each setting, `PARALLEL_REPEATS` times in turn, so a slow moment falls on all three alike. */
async function measureSettings(server: { baseURL: string }, snapshot: PromptSnapshot): Promise<Record<'sequential' | 'byDefault' | 'allAtOnce', MeasuredRun[]> & { bare: BareCallTimes[] }> {
  const runs: Record<'sequential' | 'byDefault' | 'allAtOnce', MeasuredRun[]> & { bare: BareCallTimes[] } = { sequential: [], byDefault: [], allAtOnce: [], bare: [] };
  for (let repeat = 0; repeat < PARALLEL_REPEATS; repeat += 1) {
    runs.sequential.push(await runRetinue(server, { defaults: { maxRunningChildren: 1 }, snapshot }));
    runs.byDefault.push(await runRetinue(server, { defaults: {}, snapshot }));
    runs.allAtOnce.push(await runRetinue(server, { defaults: { maxRunningChildren: CHILDREN }, snapshot }));
    runs.bare.push(await timeBareCalls(server.baseURL));
  }
  return runs;
}

/** (a) against a model server on a thread of its own, as a remote endpoint is (model-server-thread.ts). */
async function parallelSpeedUp(): Promise<void> {
  const server = await startChildrenServerThread(PARALLEL_MARKER);
  try {
    await measureParallelSpeedUp(server);
  } finally {
    const unmatched = await server.close();
    if (unmatched > 0) console.log(`  note: ${unmatched} request(s) matched no script.`);
  }
}

async function measureParallelSpeedUp(server: { baseURL: string }): Promise<void> {
  const snapshot: PromptSnapshot = { messages: [{ role: 'system', content: `${PARALLEL_MARKER} A benchmark.` }, { role: 'user', content: 'Split the work.' }] };
  console.log(`(a) Parallel speed-up: ${CHILDREN} children × ${CHILD_ROUNDS} rounds, ${CALL_DELAY_MS} ms per model call (the root makes 3 calls); medians of ${PARALLEL_REPEATS}`);
  const runs = await measureSettings(server, snapshot);
  const childrenOf = (measured: MeasuredRun[]) => median(measured.map((run) => run.childrenMilliseconds));
  const runOf = (measured: MeasuredRun[]) => median(measured.map((run) => run.milliseconds));
  const [sequential, byDefault, allAtOnce] = [runs.sequential, runs.byDefault, runs.allAtOnce];
  console.log(`  one at a time (maxRunningChildren 1, the seed's behaviour): run ${seconds(runOf(sequential))}, children ${seconds(childrenOf(sequential))}`);
  console.log(`  scheduler, default (maxRunningChildren 3):                   run ${seconds(runOf(byDefault))}, children ${seconds(childrenOf(byDefault))}`);
  console.log(`  scheduler, all at once (maxRunningChildren ${CHILDREN}):              run ${seconds(runOf(allAtOnce))}, children ${seconds(childrenOf(allAtOnce))}`);
  const childrenRatio = childrenOf(sequential) / childrenOf(allAtOnce);
  const runRatio = runOf(sequential) / runOf(allAtOnce);
  const defaultRatio = childrenOf(sequential) / childrenOf(byDefault);
  const eachRatio = sequential.map((run, index) => run.childrenMilliseconds / (allAtOnce[index] as MeasuredRun).childrenMilliseconds);
  console.log(`  speed-up of the children: ${childrenRatio.toFixed(2)}× with ${CHILDREN} at once (ideal ${CHILDREN}×, ${(childrenRatio / CHILDREN).toFixed(3)} of it), ${defaultRatio.toFixed(2)}× with the default 3 (ideal 3×)`);
  console.log(`  each repeat, one at a time against all at once: ${eachRatio.map((ratio) => ratio.toFixed(2)).join(', ')}`);
  console.log(`  speed-up of the whole run: ${runRatio.toFixed(2)}× (less than the children's: the root's own 3 calls cannot overlap)`);
  const ideal = CHILD_ROUNDS * CALL_DELAY_MS;
  const spread = median(allAtOnce.map((run) => run.startSpreadMilliseconds));
  console.log(`  where the time goes with ${CHILDREN} at once: task starts spread over ${spread.toFixed(0)} ms; children ${seconds(childrenOf(allAtOnce))} against ${seconds(ideal)} of model latency`);
  const bareRatio = median(runs.bare.map((times) => times.oneAtATime)) / median(runs.bare.map((times) => times.allAtOnce));
  console.log(
    `  the same ${CHILDREN * CHILD_ROUNDS} calls bare (the SDK alone, no runtime, same server): one at a time ${seconds(median(runs.bare.map((times) => times.oneAtATime)))}, ${CHILDREN} at once ${seconds(median(runs.bare.map((times) => times.allAtOnce)))}: ${bareRatio.toFixed(2)}× (${(bareRatio / CHILDREN).toFixed(3)} of ideal), the most a runtime could gain here; Retinue's children ${(childrenRatio / bareRatio).toFixed(3)} of that`,
  );
  console.log(`  slowest store calls (time to answer, mean), one at a time: ${describeStoreCalls(sequential.at(-1)?.storeCalls ?? new Map())}`);
  console.log(`  slowest store calls (time to answer, mean), ${CHILDREN} at once:   ${describeStoreCalls(allAtOnce.at(-1)?.storeCalls ?? new Map())}`);
}

async function overheadPerRound(server: ScriptedModelServer): Promise<void> {
  const snapshot: PromptSnapshot = { messages: [{ role: 'user', content: 'Go.' }] };
  const calls = LOOP_ROUNDS + 1;
  console.log(`(b) Overhead per model round at zero model latency: ${LOOP_ROUNDS} rounds with one tool call each, then an answer; median of ${LOOP_REPEATS}`);
  // One warm-up of each, so module loading and JIT do not count.
  await runRetinue(server, { defaults: {}, snapshot, rootProfileId: 'bench-looper' });
  await runAgentsSdk(server);
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let repeat = 0; repeat < LOOP_REPEATS; repeat += 1) {
    ours.push((await runRetinue(server, { defaults: {}, snapshot, rootProfileId: 'bench-looper' })).milliseconds / calls);
    theirs.push((await runAgentsSdk(server)) / calls);
  }
  const oursPerRound = median(ours);
  const theirsPerRound = median(theirs);
  console.log(`  Retinue runtime (every round persisted, fake-indexeddb): ${oursPerRound.toFixed(2)} ms per round`);
  console.log(`  @openai/agents 0.13.5 (same server, same tool loop):      ${theirsPerRound.toFixed(2)} ms per round`);
  console.log(`  ratio Retinue / @openai/agents: ${(oursPerRound / theirsPerRound).toFixed(2)}×`);
}

setTracingDisabled(true);
// @openai/agents passes one run-long signal to every SDK call, and the openai SDK never removes the
// listener it adds, so the baseline trips Node's listener warning each round; keep other warnings.
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name !== 'MaxListenersExceededWarning') console.warn(warning);
});
await parallelSpeedUp();
// (b) on the runtime's own thread: both loops pay the server's work alike, round by round.
const server = await startScriptedModelServer();
scriptLoop(server);
try {
  await overheadPerRound(server);
  if (server.unmatched.length > 0) console.log(`  note: ${server.unmatched.length} request(s) matched no script.`);
} finally {
  await server.close();
}
