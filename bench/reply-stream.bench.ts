/**
 * The streamed reply (issue 14), printed from one run against the scripted model server: a model that
 * writes its reply in 40 deltas, 60 ms apart. Without Retinue: the openai SDK reads the model's stream
 * itself. With Retinue: the runtime's reply stream (what the page writer turns into SSE), for a turn
 * the root answers at once and for the reply it writes after its helpers are done. Printed: the time
 * to the first reply token, the delay between the model writing a token and the reader getting it,
 * and how many steps the reply arrives in over how long. The browser's relay is not in these numbers.
 */
// First, as in every entry point: zod runs jitless, as it must in the extension (no eval under its CSP).
import '../src/zod-jitless';
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import OpenAI from 'openai';
import { createModelResolver } from '../src/model/model-resolver';
import { resolveProfiles } from '../src/profiles/built-in-profiles';
import type { PromptSnapshot } from '../src/hosts/prompt-snapshot';
import { createAgentRuntime } from '../src/runtime/create-agent-runtime';
import { defaultsSchema, profileSchema } from '../src/settings/schema';
import { openRunStore } from '../src/store/idb-run-store';
import { startScriptedModelServer, type ScriptedModelServer, type ScriptedRequest } from '../tests/support/scripted-model-server';

const WRITING = { pieces: 40, delayMs: 60 };
const REPEATS = 3;
const REPLY = Array.from({ length: 20 }, (_, index) => `Wave ${index + 1} breaks below the tower.`).join(' ');
const ROOT_MARKER = '[[bench-root]]';
const HELPER_MARKER = '[[bench-helper]]';

const profiles = resolveProfiles({
  profiles: [
    profileSchema.parse({
      id: 'bench-root',
      name: 'Bench root',
      description: 'Answers, or asks its helper first. For the benchmark only.',
      systemPrompt: `${ROOT_MARKER} Write the reply.`,
      tools: { allow: ['agent.delegate', 'agent.await'] },
      delegation: { canDelegate: true, callable: false },
    }),
    profileSchema.parse({
      id: 'bench-helper',
      name: 'Bench helper',
      description: 'Returns at once. For the benchmark only.',
      systemPrompt: `${HELPER_MARKER} Return at once.`,
      tools: { allow: [] },
    }),
  ],
});

function scriptServer(server: ScriptedModelServer): void {
  server.script((request) => {
    if (request.systemText.includes(HELPER_MARKER)) return { toolCalls: [{ name: 'task_return', arguments: { summary: 'Done.' } }] };
    const delegating = request.allText.includes('Ask your helper first.');
    if (request.systemText.includes(ROOT_MARKER) && delegating && request.toolResultCount === 0) {
      return { toolCalls: [{ name: 'agent_delegate', arguments: { agentId: 'bench-helper', task: { title: 'Help', objective: 'Help.' } } }] };
    }
    if (request.systemText.includes(ROOT_MARKER) && delegating && request.toolResultCount === 1) {
      return { toolCalls: [{ name: 'agent_await', arguments: {} }] };
    }
    return { content: REPLY, slowly: WRITING };
  });
}

interface Arrival {
  /** From the start of the turn (the page's request) to the first reply token. */
  firstTokenMs: number;
  /** From the model writing its first reply token to the reader getting it. */
  firstTokenDelayMs: number;
  steps: number;
  /** From the first reply token to the last, as the reader got them. */
  spreadMs: number;
}

function lastReplyRequest(server: ScriptedModelServer): ScriptedRequest {
  const request = server.requests.filter((candidate) => candidate.contentWrittenAt.length > 0).at(-1);
  if (!request) throw new Error('The model wrote no reply.');
  return request;
}

function arrivalOf(server: ScriptedModelServer, started: number, arrivals: number[]): Arrival {
  const written = lastReplyRequest(server).contentWrittenAt;
  const first = arrivals[0] ?? Number.NaN;
  return { firstTokenMs: first - started, firstTokenDelayMs: first - (written[0] ?? Number.NaN), steps: arrivals.length, spreadMs: (arrivals.at(-1) ?? first) - first };
}

async function withoutRetinue(server: ScriptedModelServer): Promise<Arrival> {
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'bench', maxRetries: 0 });
  server.reset();
  scriptServer(server);
  const started = Date.now();
  const arrivals: number[] = [];
  const stream = await client.chat.completions.create({ model: 'scripted-model', messages: [{ role: 'user', content: 'Go.' }], stream: true });
  for await (const chunk of stream) if (chunk.choices[0]?.delta.content) arrivals.push(Date.now());
  return arrivalOf(server, started, arrivals);
}

async function withRetinue(server: ScriptedModelServer, userText: string): Promise<Arrival> {
  const store = await openRunStore({ name: 'bench-reply', indexedDB: new IDBFactory() });
  server.reset();
  scriptServer(server);
  try {
    const runtime = createAgentRuntime({ store, profiles, defaults: defaultsSchema.parse({ rootProfileId: 'bench-root' }) });
    const resolveModel = createModelResolver({ connections: [], host: { label: 'bench', baseURL: server.baseURL, apiKey: 'bench', model: 'scripted-model' } });
    const snapshot: PromptSnapshot = { messages: [{ role: 'user', content: userText }], stream: true };
    const arrivals: number[] = [];
    const started = Date.now();
    const outcome = await runtime.startRun({
      origin: 'runner:',
      adapter: 'runner',
      snapshot,
      resolveModel,
      onReplyStream: (event) => {
        if (event.kind === 'reply-delta') arrivals.push(Date.now());
      },
    });
    if (outcome.run.status !== 'completed' || outcome.reply !== REPLY) throw new Error(`The benchmark run ended ${outcome.run.status}.`);
    return arrivalOf(server, started, arrivals);
  } finally {
    store.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function measure(label: string, once: () => Promise<Arrival>): Promise<void> {
  await once();
  const runs: Arrival[] = [];
  for (let repeat = 0; repeat < REPEATS; repeat += 1) runs.push(await once());
  const pick = (field: keyof Arrival) => median(runs.map((run) => run[field]));
  console.log(
    `  ${label.padEnd(44)} first token ${pick('firstTokenMs').toFixed(0).padStart(5)} ms after the request, ` +
      `${pick('firstTokenDelayMs').toFixed(0).padStart(4)} ms after the model wrote it; ${pick('steps')} steps over ${(pick('spreadMs') / 1000).toFixed(2)} s`,
  );
}

const server = await startScriptedModelServer();
try {
  console.log(`Time to the first reply token: a model writing its reply in ${WRITING.pieces} deltas, ${WRITING.delayMs} ms apart; median of ${REPEATS}`);
  await measure('without Retinue (the SDK reads the model):', () => withoutRetinue(server));
  await measure('with Retinue, the root answers at once:', () => withRetinue(server, 'Go.'));
  await measure('with Retinue, after its helper is done:', () => withRetinue(server, 'Ask your helper first.'));
  console.log('  (answering at once, the root holds its first sentence back until it knows it is no preamble to a tool call)');
} finally {
  await server.close();
}
