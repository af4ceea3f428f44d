/**
 * The storage benchmark, for one 8-round turn on a 200,000-character chat against the scripted model
 * server (in-process):
 * (a) characters written to IndexedDB (fake-indexeddb here), against what must be stored at least: the
 *     chat once plus what the run added to it. Goal (issue 10): at most 1.5×. A store that rewrites the
 *     whole history after every message grows with the square of the turn's length;
 * (b) time per round with every message persisted, against the same turn through @openai/agents, which
 *     persists nothing. Goal: at most 1.0×.
 */
// First, as in every entry point: zod runs jitless, as it must in the extension (no eval under its CSP).
import '../src/zod-jitless';
import 'fake-indexeddb/auto';
import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled, tool, type AgentInputItem } from '@openai/agents';
import { IDBCursor, IDBFactory, IDBIndex, IDBObjectStore } from 'fake-indexeddb';
import OpenAI from 'openai';
import { z } from 'zod';
import { createModelResolver } from '../src/model/model-resolver';
import type { PromptSnapshot } from '../src/hosts/prompt-snapshot';
import { resolveProfiles } from '../src/profiles/built-in-profiles';
import { createAgentRuntime } from '../src/runtime/create-agent-runtime';
import { defaultsSchema, profileSchema } from '../src/settings/schema';
import { openRunStore } from '../src/store/idb-run-store';
import type { RunStore } from '../src/store/run-store';
import type { RunOutcome } from '../src/runtime/agent-runtime';
import { startScriptedModelServer, type ScriptedModelServer } from '../tests/support/scripted-model-server';

const CHAT_CHARS = 200_000;
const ROUNDS = 8;
const REPEATS = 15;
const MARKER = '[[bench-storage]]';

/**
 * Counts what reaches IndexedDB itself: the JSON length of every record fake-indexeddb is asked to
 * put, add or update, whichever store method wrote it. Installed once, before the store opens.
 */
interface Written {
  characters: number;
  records: number;
  /** Characters per object store. */
  byStore: Map<string, number>;
}

function countIndexedDbWrites(): () => Written {
  const written: Written = { characters: 0, records: 0, byStore: new Map() };
  const storeNameOf = (target: unknown): string => {
    const source: unknown = target instanceof IDBCursor ? target.source : target;
    const store: unknown = source instanceof IDBIndex ? source.objectStore : source;
    return store instanceof IDBObjectStore ? store.name : '?';
  };
  const patch = (prototype: object, name: string): void => {
    const original: unknown = Reflect.get(prototype, name);
    if (typeof original !== 'function') return;
    Reflect.set(prototype, name, function (this: unknown, value: unknown, ...rest: unknown[]) {
      const characters = JSON.stringify(value).length;
      const store = storeNameOf(this);
      written.records += 1;
      written.characters += characters;
      written.byStore.set(store, (written.byStore.get(store) ?? 0) + characters);
      return (original as (...args: unknown[]) => unknown).call(this, value, ...rest);
    });
  };
  patch(IDBObjectStore.prototype, 'put');
  patch(IDBObjectStore.prototype, 'add');
  patch(IDBCursor.prototype, 'update');
  return () => written;
}

function longChat(): PromptSnapshot {
  const line = 'The rain drums on the lighthouse roof while Mara climbs the stair, counting the steps. ';
  const messages: PromptSnapshot['messages'] = [{ role: 'system', content: 'You are the narrator.' }];
  let size = 0;
  for (let index = 0; size < CHAT_CHARS; index += 1) {
    const content = line.repeat(Math.ceil(2_000 / line.length)).slice(0, 2_000);
    messages.push({ role: index % 2 === 0 ? 'user' : 'assistant', content });
    size += content.length;
  }
  messages.push({ role: 'user', content: 'Mara opens the door.' });
  return { messages, stream: false };
}

const rootProfile = profileSchema.parse({
  id: 'bench-storage-root',
  name: 'Bench storage root',
  description: 'Lists the workspace for seven rounds, then answers. For the benchmark only.',
  systemPrompt: `${MARKER} List the workspace, then answer.`,
  tools: { allow: ['workspace.list'] },
  delegation: { canDelegate: false, callable: false },
  budget: { maxRounds: ROUNDS + 2, maxToolCalls: ROUNDS * 2 },
});

/** One turn through the Retinue runtime, every message persisted to a fresh fake-indexeddb database. */
async function runRetinue(server: ScriptedModelServer, snapshot: PromptSnapshot, onStore?: (store: RunStore) => Promise<void>): Promise<{ milliseconds: number; outcome: RunOutcome }> {
  const store = await openRunStore({ name: `bench-storage-${Date.now()}`, indexedDB: new IDBFactory() });
  try {
    const runtime = createAgentRuntime({ store, profiles: resolveProfiles({ profiles: [rootProfile] }), defaults: defaultsSchema.parse({}) });
    const resolveModel = createModelResolver({ connections: [], host: { label: 'scripted', baseURL: server.baseURL, apiKey: '', model: 'scripted-model' } });
    const started = performance.now();
    const outcome = await runtime.startRun({ origin: 'bench:', adapter: 'openai-chat', snapshot, rootProfileId: rootProfile.id, resolveModel });
    const milliseconds = performance.now() - started;
    if (outcome.run.status !== 'completed') throw new Error(`The benchmark run ended ${outcome.run.status}: ${outcome.run.error?.message ?? 'no reason'}`);
    await onStore?.(store);
    return { milliseconds, outcome };
  } finally {
    store.close();
  }
}

/** The same turn through @openai/agents, the chat handed over as its input items, nothing persisted. */
async function runAgentsSdk(server: ScriptedModelServer, snapshot: PromptSnapshot): Promise<number> {
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'bench', maxRetries: 0 });
  const agent = new Agent({
    name: 'Bench storage root',
    instructions: `${MARKER} List the workspace, then answer.`,
    model: new OpenAIChatCompletionsModel(client, 'scripted-model'),
    tools: [tool({ name: 'workspace_list', description: 'List the workspace.', parameters: z.object({}), execute: async () => 'scratch/\nsummaries/' })],
  });
  const input = snapshot.messages.map((message): AgentInputItem => {
    const text = typeof message.content === 'string' ? message.content : '';
    if (message.role === 'assistant') return { role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] };
    return message.role === 'user' ? { role: 'user', content: text } : { role: 'system', content: text };
  });
  const started = performance.now();
  const result = await run(agent, input, { maxTurns: ROUNDS + 5 });
  const milliseconds = performance.now() - started;
  if (typeof result.finalOutput !== 'string' || result.finalOutput === '') throw new Error('The @openai/agents run gave no answer.');
  return milliseconds;
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

async function charactersWritten(server: ScriptedModelServer, snapshot: PromptSnapshot): Promise<void> {
  const written = countIndexedDbWrites();
  let history: unknown[] = [];
  const { outcome } = await runRetinue(server, snapshot, async (store) => {
    const [run] = await store.listRuns();
    history = run ? ((await store.getInvocation(run.rootInvocationId))?.messages ?? []) : [];
  });
  const { characters, records, byStore } = written();
  const chatCharacters = JSON.stringify(snapshot.messages).length;
  const added = Math.max(0, JSON.stringify(history).length - chatCharacters);
  console.log(`(a) Characters written: one ${outcome.run.usage.rounds}-round turn on a ${CHAT_CHARS.toLocaleString('en')}-character chat (${outcome.run.status})`);
  console.log(`  written to IndexedDB: ${characters.toLocaleString('en')} characters in ${records} records`);
  console.log(`  by object store: ${[...byStore].map(([store, count]) => `${store} ${count.toLocaleString('en')}`).join(', ')}`);
  console.log(`  chat ${chatCharacters.toLocaleString('en')} + added by the run ${added.toLocaleString('en')} = ${(chatCharacters + added).toLocaleString('en')}`);
  console.log(`  ratio: ${(characters / (chatCharacters + added)).toFixed(2)}× (goal ≤ 1.5×)`);
}

async function timePerRound(server: ScriptedModelServer, snapshot: PromptSnapshot): Promise<void> {
  console.log(`(b) Time per round of the same turn at zero model latency, median of ${REPEATS}`);
  await runRetinue(server, snapshot);
  await runAgentsSdk(server, snapshot);
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let repeat = 0; repeat < REPEATS; repeat += 1) {
    ours.push((await runRetinue(server, snapshot)).milliseconds / ROUNDS);
    theirs.push((await runAgentsSdk(server, snapshot)) / ROUNDS);
  }
  console.log(`  Retinue runtime (every message persisted, fake-indexeddb): ${median(ours).toFixed(2)} ms per round`);
  console.log(`  @openai/agents 0.13.5 (same server, same chat, nothing persisted): ${median(theirs).toFixed(2)} ms per round`);
  console.log(`  ratio Retinue / @openai/agents: ${(median(ours) / median(theirs)).toFixed(2)}× (goal ≤ 1.0×)`);
}

setTracingDisabled(true);
const server = await startScriptedModelServer();
server.script((request) => {
  if (!request.systemText.includes(MARKER)) return undefined;
  return request.toolResultCount < ROUNDS - 1 ? { toolCalls: [{ name: 'workspace_list', arguments: {} }] } : { content: 'She opens the door; the keeper stands there, dripping.' };
});
try {
  const snapshot = longChat();
  await charactersWritten(server, snapshot);
  await timePerRound(server, snapshot);
} finally {
  await server.close();
}
