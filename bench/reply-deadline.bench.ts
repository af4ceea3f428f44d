/**
 * The reply deadline (issue 12), printed from runs against the scripted model server: every root
 * call takes 200 ms, the helper's 1,000 ms (5× slower). The root delegates, awaits and replies.
 * Without a deadline the reply waits for the helper; with one (500 ms) the reply goes out at the
 * deadline and the helper finishes after it. Printed: the time to the reply, and to the run's end,
 * with the ratio against the run without a deadline measured in the same process.
 */
// First, as in every entry point: zod runs jitless, as it must in the extension (no eval under its CSP).
import '../src/zod-jitless';
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { createModelResolver } from '../src/model/model-resolver';
import { resolveProfiles } from '../src/profiles/built-in-profiles';
import { createAgentRuntime } from '../src/runtime/create-agent-runtime';
import { defaultsSchema, profileSchema } from '../src/settings/schema';
import { openRunStore } from '../src/store/idb-run-store';
import { startScriptedModelServer } from '../tests/support/scripted-model-server';

const ROOT_CALL_MS = 200;
const HELPER_CALL_MS = ROOT_CALL_MS * 5;
const DEADLINE_MS = 500;
const REPEATS = 3;
const ROOT_MARKER = '[[bench-root]]';
const HELPER_MARKER = '[[bench-helper]]';

const profiles = resolveProfiles({
  profiles: [
    profileSchema.parse({
      id: 'bench-root',
      name: 'Bench root',
      description: 'Asks its helper, then replies. For the benchmark only.',
      systemPrompt: `${ROOT_MARKER} Write the reply.`,
      tools: { allow: ['agent.delegate', 'agent.await'] },
      delegation: { canDelegate: true, callable: false },
    }),
    profileSchema.parse({ id: 'bench-helper', name: 'Bench helper', description: 'Slow. For the benchmark only.', systemPrompt: `${HELPER_MARKER} Return.`, tools: { allow: [] } }),
  ],
});

interface Timing {
  replyMs: number;
  endMs: number;
}

async function oneRun(deadlineMs: number | undefined): Promise<Timing> {
  const server = await startScriptedModelServer();
  server.script((request) => {
    if (request.systemText.includes(HELPER_MARKER)) return { delayMs: HELPER_CALL_MS, toolCalls: [{ name: 'task_return', arguments: { summary: 'Done.' } }] };
    if (request.toolResultCount === 0) return { delayMs: ROOT_CALL_MS, toolCalls: [{ name: 'agent_delegate', arguments: { agentId: 'bench-helper', task: { title: 'Help', objective: 'Help.' } } }] };
    if (request.toolResultCount === 1) return { delayMs: ROOT_CALL_MS, toolCalls: [{ name: 'agent_await', arguments: {} }] };
    return { delayMs: ROOT_CALL_MS, content: 'The reply.' };
  });
  const store = await openRunStore({ name: `bench-${Math.random()}`, indexedDB: new IDBFactory() });
  const runtime = createAgentRuntime({ store, profiles, defaults: defaultsSchema.parse({ rootProfileId: 'bench-root' }) });
  const resolveModel = createModelResolver({ connections: [], host: { label: 'bench', baseURL: server.baseURL, apiKey: 'sk-bench', model: 'scripted-model' } });
  const started = performance.now();
  let repliedAt: number | undefined;
  await runtime.startRun({
    origin: 'bench:',
    adapter: 'runner',
    snapshot: { messages: [{ role: 'user', content: 'Go.' }] },
    resolveModel,
    ...(deadlineMs ? { replyDeadlineMs: deadlineMs, onEarlyReply: () => (repliedAt = performance.now()) } : {}),
  });
  const ended = performance.now();
  await server.close();
  store.close();
  return { replyMs: (repliedAt ?? ended) - started, endMs: ended - started };
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function measure(deadlineMs: number | undefined): Promise<Timing> {
  const runs: Timing[] = [];
  for (let repeat = 0; repeat < REPEATS; repeat += 1) runs.push(await oneRun(deadlineMs));
  return { replyMs: median(runs.map((run) => run.replyMs)), endMs: median(runs.map((run) => run.endMs)) };
}

const baseline = await measure(undefined);
const withDeadline = await measure(DEADLINE_MS);
console.log(`root calls ${ROOT_CALL_MS} ms, helper calls ${HELPER_CALL_MS} ms (5× slower); medians of ${REPEATS} runs`);
console.log(`without a deadline:      reply after ${baseline.replyMs.toFixed(0)} ms, run ends after ${baseline.endMs.toFixed(0)} ms (baseline)`);
console.log(
  `with a ${DEADLINE_MS} ms deadline: reply after ${withDeadline.replyMs.toFixed(0)} ms (${(withDeadline.replyMs / baseline.replyMs).toFixed(2)}× the baseline), run ends after ${withDeadline.endMs.toFixed(0)} ms (${(withDeadline.endMs / baseline.endMs).toFixed(2)}×)`,
);
