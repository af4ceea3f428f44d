/**
 * The time a direct turn gains through the runtime (issue 23): the root answers at once, the model
 * takes 300 ms. Seven interleaved pairs against the scripted model server (in-process): the openai
 * SDK asking the model itself, then the same request as a Retinue run (store in fake-indexeddb,
 * every step persisted). Printed: the medians and their difference, what the runtime adds before
 * and after the model's answer. The browser's relay (page hook, bridge, port) is not in this number;
 * `npm run bench -- browser` measures whole turns in Chromium.
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
import { startScriptedModelServer } from '../tests/support/scripted-model-server';

const PAIRS = 7;
const MODEL_MS = 300;
const REPLY = 'The lighthouse keeper nods and lights the lamp.';

const profiles = resolveProfiles({
  profiles: [
    profileSchema.parse({
      id: 'bench-root',
      name: 'Bench root',
      description: 'Answers at once. For the benchmark only.',
      systemPrompt: 'Write the reply.',
      tools: { allow: ['agent.delegate', 'agent.await'] },
      delegation: { canDelegate: true, callable: false },
    }),
  ],
});
const chat = [
  { role: 'system' as const, content: 'You are the narrator.' },
  { role: 'user' as const, content: 'Mara reaches the lighthouse.' },
];

const server = await startScriptedModelServer();
server.script(() => ({ content: REPLY, delayMs: MODEL_MS }));
const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'bench', maxRetries: 0 });
const resolveModel = createModelResolver({ connections: [], host: { label: 'bench', baseURL: server.baseURL, apiKey: 'bench', model: 'scripted-model' } });

async function withoutRetinue(): Promise<number> {
  const started = performance.now();
  const stream = await client.chat.completions.create({ model: 'scripted-model', messages: chat, stream: true });
  for await (const chunk of stream) void chunk;
  return performance.now() - started;
}

async function withRetinue(): Promise<number> {
  const store = await openRunStore({ name: 'bench-direct', indexedDB: new IDBFactory() });
  try {
    const runtime = createAgentRuntime({ store, profiles, defaults: defaultsSchema.parse({ rootProfileId: 'bench-root' }) });
    const started = performance.now();
    const outcome = await runtime.startRun({ origin: 'runner:', adapter: 'runner', snapshot: { messages: chat, stream: true } satisfies PromptSnapshot, resolveModel, onReplyStream: () => undefined });
    const milliseconds = performance.now() - started;
    if (outcome.run.status !== 'completed' || outcome.reply !== REPLY) throw new Error(`The benchmark run ended ${outcome.run.status}.`);
    return milliseconds;
  } finally {
    store.close();
  }
}

const median = (values: number[]) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)] as number;

try {
  // One warm-up of each, so module loading and JIT do not count.
  await withoutRetinue();
  await withRetinue();
  const theirs: number[] = [];
  const ours: number[] = [];
  for (let pair = 0; pair < PAIRS; pair += 1) {
    theirs.push(await withoutRetinue());
    ours.push(await withRetinue());
  }
  console.log(`Direct turn (the root answers at once), a ${MODEL_MS} ms model, median of ${PAIRS} interleaved pairs:`);
  console.log(`  the SDK asking the model itself:   ${median(theirs).toFixed(0)} ms`);
  console.log(`  the same request as a Retinue run: ${median(ours).toFixed(0)} ms`);
  console.log(`  the runtime adds ${(median(ours) - median(theirs)).toFixed(0)} ms`);
} finally {
  await server.close();
}
