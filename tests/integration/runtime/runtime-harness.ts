import { createConcurrencyLimiter } from '../../../src/model/concurrency-limiter';
import { createModelClient } from '../../../src/model/create-model-client';
import type { ModelClient } from '../../../src/model/model-client';
import type { PromptSnapshot } from '../../../src/hosts/prompt-snapshot';
import type { JournalEvent } from '../../../src/records/journal';
import type { AgentRuntime, AgentRuntimeOptions, RunOutcome, StartRunOptions } from '../../../src/runtime/agent-runtime';
import { createAgentRuntime } from '../../../src/runtime/create-agent-runtime';
import { defaultsSchema, profileSchema, type AgentProfile, type AgentProfileInput, type SettingsDefaults } from '../../../src/settings/schema';
import { openRunStore } from '../../../src/store/idb-run-store';
import type { RunStep, RunStore } from '../../../src/store/run-store';
import { uniqueDatabaseName } from '../../support/record-builders';
import { startScriptedModelServer, type ScriptedModelServer, type ScriptedReply, type ScriptedRequest } from '../../support/scripted-model-server';

/** A reply, or one computed (possibly after waiting for something) from the request. */
export type LaterReply = ScriptedReply | ((request: ScriptedRequest) => ScriptedReply | Promise<ScriptedReply>);

/** Markers in each test profile's prompt, so the scripted server can tell who is calling. */
export const MARKER = {
  root: '[[root]]',
  critic: '[[critic]]',
  checker: '[[checker]]',
} as const;

export function testProfiles(overrides: { root?: Partial<AgentProfileInput>; critic?: Partial<AgentProfileInput>; checker?: Partial<AgentProfileInput> } = {}): AgentProfile[] {
  return [
    profileSchema.parse({
      id: 'root',
      name: 'Writer',
      description: 'The page model.',
      systemPrompt: `${MARKER.root} You write the reply.`,
      tools: { allow: ['agent.list', 'agent.delegate', 'agent.await', 'agent.cancel', 'workspace.list', 'workspace.read', 'workspace.write', 'workspace.commit', 'workspace.finish', 'chat.read'] },
      delegation: { canDelegate: true, callable: false },
      budget: { maxRounds: 8, maxToolCalls: 16 },
      ...overrides.root,
    }),
    profileSchema.parse({
      id: 'scene-critic',
      name: 'Scene critic',
      description: 'Critiques a scene plan.',
      systemPrompt: `${MARKER.critic} You critique scenes.`,
      tools: { allow: ['workspace.list', 'workspace.read', 'workspace.write', 'chat.read'] },
      budget: { maxRounds: 4, maxToolCalls: 6 },
      ...overrides.critic,
    }),
    profileSchema.parse({
      id: 'continuity-checker',
      name: 'Continuity checker',
      description: 'Finds contradictions with earlier events.',
      systemPrompt: `${MARKER.checker} You check continuity.`,
      tools: { allow: ['workspace.list', 'workspace.read', 'workspace.write', 'chat.read'] },
      budget: { maxRounds: 4, maxToolCalls: 6 },
      ...overrides.checker,
    }),
  ];
}

export const snapshot: PromptSnapshot = {
  messages: [
    { role: 'system', content: 'You are Mira, a storyteller.' },
    { role: 'user', content: 'The knight enters the hall.' },
    { role: 'assistant', content: 'The hall is silent; rain drums on the roof.' },
    { role: 'user', content: 'She draws her sword and faces the duke.' },
  ],
  temperature: 0.7,
  stream: true,
};

export interface Harness {
  server: ScriptedModelServer;
  store: RunStore;
  runtime: AgentRuntime;
  progress: string[];
  /**
   * A new runtime over the same store (as after a service worker restart), or over `store` when
   * given; `now` shifts its clock (a restart that came later); `journalIdleMs` as the runtime takes it.
   */
  newRuntime(store?: RunStore, options?: Partial<Omit<AgentRuntimeOptions, 'store'>>): AgentRuntime;
  /** The same database opened again, as a restarted worker opens it: a store object that has written nothing yet. */
  reopenStore(): Promise<RunStore>;
  /** Starts a run on `runtime` the way `start` does on the harness's own runtime. */
  startOn(runtime: AgentRuntime, options?: Partial<StartRunOptions>): Promise<RunOutcome>;
  start(options?: Partial<StartRunOptions>): Promise<RunOutcome>;
  resolveModel(): ModelClient;
  journal(runId: string): Promise<JournalEvent[]>;
  /** Resolves with the first journal event (of any run) that `matches`, appended from now on. */
  nextEvent(matches: (event: JournalEvent) => boolean): Promise<JournalEvent>;
  /** Like `server.queue`, but a reply may wait (e.g. until a task has ended) before it is given. */
  queueLater(match: (request: ScriptedRequest) => boolean, ...replies: LaterReply[]): void;
  close(): Promise<void>;
}

export interface HarnessOptions {
  profiles?: AgentProfile[];
  defaults?: Partial<SettingsDefaults>;
  maxRetries?: number;
  /** Model calls in flight at once across every run and agent (one shared connection slot pool). */
  maxConcurrency?: number;
}

/** A scripted server, a fresh store and a runtime whose every model call goes through the real SDK. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const server = await startScriptedModelServer();
  const databaseName = uniqueDatabaseName();
  const store = await openRunStore({ name: databaseName });
  const reopened: RunStore[] = [];
  const progress: string[] = [];
  const runtimeOptions: AgentRuntimeOptions = {
    store,
    profiles: options.profiles ?? testProfiles(),
    defaults: defaultsSchema.parse(options.defaults ?? {}),
  };
  const limiter = options.maxConcurrency === undefined ? undefined : createConcurrencyLimiter(options.maxConcurrency);
  const resolveModel = (): ModelClient =>
    createModelClient(
      { label: 'scripted', baseURL: server.baseURL, apiKey: 'sk-test', model: 'scripted-model' },
      { maxRetries: options.maxRetries ?? 2, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 2_000, ...(limiter ? { limiter } : {}) },
    );
  const runtime = createAgentRuntime(runtimeOptions);
  return {
    server,
    store,
    runtime,
    progress,
    resolveModel,
    newRuntime: (otherStore, other = {}) => createAgentRuntime({ ...runtimeOptions, store: otherStore ?? store, ...other }),
    async reopenStore() {
      const again = await openRunStore({ name: databaseName });
      reopened.push(again);
      return again;
    },
    startOn: (other, start = {}) =>
      other.startRun({ origin: 'http://127.0.0.1:8000', adapter: 'openai-chat', snapshot, resolveModel, onProgress: (line) => progress.push(line), ...start }),
    start: (start = {}) =>
      runtime.startRun({ origin: 'http://127.0.0.1:8000', adapter: 'openai-chat', snapshot, resolveModel, onProgress: (line) => progress.push(line), ...start }),
    journal: (runId) => store.readJournal(runId),
    nextEvent: (matches) =>
      new Promise((resolve) => {
        const unsubscribe = store.onJournalAppended((event) => {
          if (!matches(event)) return;
          unsubscribe();
          resolve(event);
        });
      }),
    queueLater(match, ...replies) {
      const pending = [...replies];
      server.script(async (request) => {
        if (pending.length === 0 || !match(request)) return undefined;
        const next = pending.shift() as LaterReply;
        return typeof next === 'function' ? next(request) : next;
      });
    },
    async close() {
      await runtime.shutdown();
      await server.close();
      for (const again of reopened) again.close();
      store.close();
    },
  };
}

/** The root's `agent_delegate` call for one task whose objective is `<title>, please.`. */
export const delegate = (agentId: string, title: string) => ({ name: 'agent_delegate', arguments: { agentId, task: { title, objective: `${title}, please.` } } });

/** The root's `agent_delegate` call handing the scene critic one critique. */
export const delegateCritic = { name: 'agent_delegate', arguments: { agentId: 'scene-critic', task: { title: 'Critique', objective: 'Critique the scene.' } } };

/** Requests made by one profile (by its marker). */
export function requestsOf(server: ScriptedModelServer, marker: string): ScriptedRequest[] {
  return server.requests.filter((request) => request.systemText.includes(marker));
}

export const isRoot = (request: ScriptedRequest): boolean => request.systemText.includes(MARKER.root);
export const isCritic = (request: ScriptedRequest): boolean => request.systemText.includes(MARKER.critic);
export const isChecker = (request: ScriptedRequest): boolean => request.systemText.includes(MARKER.checker);

/** One method of a store, bound to it, as `storeWith` hands it to a wrapper. */
export type StoreMethod = (...args: unknown[]) => unknown;

/**
 * The store with each method `wrap` returns a function for replaced by it (`method` is the store's
 * own, bound); the others, and every non-method property, are the store's. The one way the tests
 * put a fault, a freeze or a record of calls between the runtime and its store.
 */
export function storeWith(store: RunStore, wrap: (name: string, method: StoreMethod) => StoreMethod | undefined): RunStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const method = (value as StoreMethod).bind(target);
      return wrap(String(property), method) ?? method;
    },
  });
}

/**
 * A store that, from the write `freezesAfter` picks on, never answers again: the runtime using it
 * is as dead as a service worker the browser killed mid-step, and its records stay as they were.
 */
export function freezingStore(store: RunStore, freezesAfter: (method: string, argument: unknown) => boolean): RunStore {
  let frozen = false;
  return storeWith(store, (name, method) =>
    name === 'onJournalAppended' || name === 'close'
      ? undefined
      : async (...args: unknown[]) => {
          if (frozen) return new Promise(() => undefined);
          const result: unknown = await method(...args);
          if (freezesAfter(name, args[0])) frozen = true;
          return result;
        },
  );
}

/** A store that died: `frozen` resolves once it stopped answering. */
export interface DyingStore {
  store: RunStore;
  frozen: Promise<void>;
}

const WRITES = new Set(['putRun', 'deleteRun', 'putInvocation', 'saveStep', 'putTask', 'appendJournal', 'writeFile', 'writeFileChecked', 'deleteFile', 'pruneRuns']);

/**
 * A store that dies like a killed service worker: after every write it asks `diesWhen` about what
 * is stored, and once that holds, the write that made it true is kept but never answered, and no
 * later call is answered either. No cooperative shutdown: the runtime above it just stops.
 */
export function storeDyingWhen(store: RunStore, diesWhen: (store: RunStore) => Promise<boolean>): DyingStore {
  let dead = false;
  let died: () => void = () => undefined;
  const frozen = new Promise<void>((resolve) => (died = resolve));
  const never = () => new Promise<never>(() => undefined);
  const proxy = storeWith(store, (name, method) =>
    name === 'onJournalAppended' || name === 'close'
      ? undefined
      : async (...args: unknown[]) => {
          if (dead) return never();
          const result: unknown = await method(...args);
          if (dead) return never();
          if (WRITES.has(name) && (await diesWhen(store))) {
            dead = true;
            died();
            return never();
          }
          return result;
        },
  );
  return { store: proxy, frozen };
}

/**
 * A store where the first step that `dies` matches is never written and never answers, nor is any
 * write after it: a worker killed as that step was being written.
 */
export function storeDyingAtStep(store: RunStore, dies: (step: RunStep) => boolean): DyingStore {
  let dead = false;
  let died: () => void = () => undefined;
  const frozen = new Promise<void>((resolve) => (died = resolve));
  const proxy = storeWith(store, (name, method) =>
    WRITES.has(name)
      ? (...args: unknown[]) => {
          if (!dead && name === 'saveStep' && dies(args[0] as RunStep)) {
            dead = true;
            died();
          }
          return dead ? new Promise<never>(() => undefined) : method(...args);
        }
      : undefined,
  );
  return { store: proxy, frozen };
}

/** The stored message history of an invocation (empty when there is none). */
export async function storedHistory(store: RunStore, invocationId: string): Promise<{ role: string; content?: unknown }[]> {
  return (await store.getInvocation(invocationId))?.messages ?? [];
}

/** The stored history of the invocation working on the task named `workspaceKey` in `runId`. */
export async function taskHistory(store: RunStore, runId: string, workspaceKey: string): Promise<{ role: string; content?: unknown }[]> {
  const task = (await store.listTasks(runId)).find((candidate) => candidate.workspaceKey === workspaceKey);
  return task ? storedHistory(store, task.childInvocationId) : [];
}

/** The stored history of the root of the only run in the store (empty before it exists). */
export async function rootHistory(store: RunStore): Promise<{ role: string; content?: unknown }[]> {
  const [run] = await store.listRuns();
  return run ? storedHistory(store, run.rootInvocationId) : [];
}

/** Whether a stored history holds a tool result whose text includes `text`. */
export function hasToolResult(history: readonly { role: string; content?: unknown }[], text: string): boolean {
  return history.some((message) => message.role === 'tool' && String(message.content).includes(text));
}
