import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { startScriptedModelServer, type ScriptedModelServer } from '../../support/scripted-model-server';

/**
 * The warm-up (src/background/warm-up-service.ts) builds, while the user writes, what a started
 * background's first turn would build on first use (src/background/first-turn-readiness.ts). This runs
 * a first direct turn in a fresh module graph, as a started background has, and counts the zod schema
 * and check instances the turn constructs, with and without the warm-up's building before it.
 */

type ZodGlobalConfig = { postProcessor?: (instance: unknown) => void };
const holder = globalThis as { __zod_globalConfig?: ZodGlobalConfig };

let model: ScriptedModelServer;
beforeAll(async () => {
  model = await startScriptedModelServer();
  model.script(() => ({ content: 'The keeper nods.' }));
});
afterAll(() => model?.close());

/** Zod instances a first turn constructs in fresh modules, after `prepare` ran in them. */
async function instancesOfFirstTurn(prepare: (modules: { buildForFirstTurn(): void }) => void): Promise<number> {
  vi.resetModules();
  const { buildForFirstTurn } = await import('../../../src/background/first-turn-readiness');
  const { bridgeToBackgroundMessageSchema } = await import('../../../src/messaging/run-port-messages');
  const { openAiChatAdapter } = await import('../../../src/hosts/openai-chat/openai-chat-adapter');
  const { createAgentRuntime } = await import('../../../src/runtime/create-agent-runtime');
  const { createModelResolver } = await import('../../../src/model/model-resolver');
  const { resolveProfiles } = await import('../../../src/profiles/built-in-profiles');
  const { defaultsSchema } = await import('../../../src/settings/schema');
  const { openRunStore } = await import('../../../src/store/idb-run-store');
  // What the background has before the turn: its settings read and its store open (the runtime).
  const store = await openRunStore({ name: 'first-turn', indexedDB: new IDBFactory() });
  const runtime = createAgentRuntime({ store, profiles: resolveProfiles({ profiles: [] }), defaults: defaultsSchema.parse({}) });
  const resolveModel = createModelResolver({ connections: [], host: { label: 'page', baseURL: model.baseURL, apiKey: 'page', model: 'scripted-model' } });
  prepare({ buildForFirstTurn });

  let constructed = 0;
  holder.__zod_globalConfig ??= {};
  holder.__zod_globalConfig.postProcessor = () => void (constructed += 1);
  try {
    const message = bridgeToBackgroundMessageSchema().parse({ type: 'run-start', adapter: 'openai-chat', body: { model: 'm', messages: [{ role: 'user', content: 'Mara knocks.' }] } });
    if (message.type !== 'run-start') throw new Error('not a run start');
    const reading = openAiChatAdapter.readRequest(message.body);
    if (reading.kind !== 'run') throw new Error('not a run');
    const outcome = await runtime.startRun({ origin: 'http://127.0.0.1:1', adapter: 'openai-chat', snapshot: reading.snapshot, resolveModel });
    expect(outcome.run.status).toBe('completed');
    return constructed;
  } finally {
    holder.__zod_globalConfig.postProcessor = undefined;
    store.close();
  }
}

test('after the warm-up built ahead, a first turn builds next to no schema of its own', async () => {
  const unprepared = await instancesOfFirstTurn(() => undefined);
  const prepared = await instancesOfFirstTurn(({ buildForFirstTurn }) => buildForFirstTurn());
  // Without it the turn builds its schemas itself (1,108 instances on 2026-12-07): the count tells
  // the two apart. With it, 34 are left: schemas nested inside others, built at their first value.
  expect(unprepared).toBeGreaterThan(300);
  expect(prepared).toBeLessThanOrEqual(unprepared / 10);
}, 60_000);
