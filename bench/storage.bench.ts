/**
 * The storage benchmark: characters written to the run store (IndexedDB, fake-indexeddb here) for one
 * 8-round turn on a 200,000-character chat, against what must be stored at least: the chat once plus
 * what the run added to it. Goal (issue 10): at most 1.5×. A store that rewrites the whole history
 * after every message grows with the square of the turn's length.
 */
import 'fake-indexeddb/auto';
import { IDBCursor, IDBIndex, IDBObjectStore } from 'fake-indexeddb';
import { createModelResolver } from '../src/model/model-resolver';
import type { PromptSnapshot } from '../src/hosts/prompt-snapshot';
import { resolveProfiles } from '../src/profiles/built-in-profiles';
import { createAgentRuntime } from '../src/runtime/create-agent-runtime';
import { defaultsSchema, profileSchema } from '../src/settings/schema';
import { openRunStore } from '../src/store/idb-run-store';
import { startScriptedModelServer } from '../tests/support/scripted-model-server';

const CHAT_CHARS = 200_000;
const ROUNDS = 8;
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

async function main(): Promise<void> {
  const server = await startScriptedModelServer();
  server.script((request) => {
    if (!request.systemText.includes(MARKER)) return undefined;
    return request.toolResultCount < ROUNDS - 1
      ? { toolCalls: [{ name: 'workspace_list', arguments: {} }] }
      : { content: 'She opens the door; the keeper stands there, dripping.' };
  });
  const root = profileSchema.parse({
    id: 'bench-storage-root',
    name: 'Bench storage root',
    description: 'Lists the workspace for seven rounds, then answers. For the benchmark only.',
    systemPrompt: `${MARKER} List the workspace, then answer.`,
    tools: { allow: ['workspace.list'] },
    delegation: { canDelegate: false, callable: false },
    budget: { maxRounds: ROUNDS + 2, maxToolCalls: ROUNDS * 2 },
  });
  const written = countIndexedDbWrites();
  const store = await openRunStore({ name: `bench-storage-${Date.now()}` });
  const runtime = createAgentRuntime({ store, profiles: resolveProfiles({ profiles: [root] }), defaults: defaultsSchema.parse({}) });
  const snapshot = longChat();
  const resolveModel = createModelResolver({
    connections: [],
    host: { label: 'scripted', baseURL: server.baseURL, apiKey: '', model: 'scripted-model' },
  });
  const outcome = await runtime.startRun({ origin: 'bench:', adapter: 'openai-chat', snapshot, rootProfileId: root.id, resolveModel });
  const history = (await store.getInvocation(outcome.run.rootInvocationId))?.messages ?? [];
  const chatCharacters = JSON.stringify(snapshot.messages).length;
  const added = Math.max(0, JSON.stringify(history).length - chatCharacters);
  const { characters, records, byStore } = written();
  console.log(`storage: one ${outcome.run.usage.rounds}-round turn on a ${CHAT_CHARS.toLocaleString('en')}-character chat (${outcome.run.status})`);
  console.log(`  written to IndexedDB: ${characters.toLocaleString('en')} characters in ${records} records`);
  console.log(`  by object store: ${[...byStore].map(([store, count]) => `${store} ${count.toLocaleString('en')}`).join(', ')}`);
  console.log(`  chat ${chatCharacters.toLocaleString('en')} + added by the run ${added.toLocaleString('en')} = ${(chatCharacters + added).toLocaleString('en')}`);
  console.log(`  ratio: ${(characters / (chatCharacters + added)).toFixed(2)}× (goal ≤ 1.5×)`);
  await server.close();
  store.close();
}

await main();
