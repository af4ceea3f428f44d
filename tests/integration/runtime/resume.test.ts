import { afterEach, beforeEach, expect, test } from 'vitest';
import type { AgentInvocation } from '../../../src/records/invocation';
import type { RunStep, RunStore } from '../../../src/store/run-store';
import type { AgentTaskRecord } from '../../../src/records/task';
import { isChecker, isCritic, isRoot, startHarness, type Harness, delegate } from './runtime-harness';

let harness: Harness;
beforeEach(async () => {
  harness = await startHarness();
});
afterEach(async () => {
  await harness.close();
});

/** Resolves when the server has taken the checker's second request (and leaves it hanging). */
let checkerHanging: Promise<void> = Promise.resolve();

function scriptRun(checkerSecondRound: 'hang' | 'return'): void {
  let served: () => void = () => undefined;
  checkerHanging = new Promise((resolve) => (served = resolve));
  harness.server.queue(
    isRoot,
    { toolCalls: [delegate('scene-critic', 'Critique'), delegate('continuity-checker', 'Check')] },
    { toolCalls: [{ name: 'agent_await', arguments: {} }] },
    (request) => ({
      content: `Reply with ${['Critic says A.', 'Checker says B.'].filter((text) => request.lastMessageText.includes(text)).join(' and ')}`,
    }),
  );
  harness.server.queue(isCritic, { toolCalls: [{ name: 'task_return', arguments: { summary: 'Critic says A.' } }] });
  harness.server.queue(
    isChecker,
    { toolCalls: [{ name: 'workspace_write', arguments: { path: 'summaries/names.md', content: 'Mira, the duke.' } }] },
    ...(checkerSecondRound === 'hang' ? [() => (served(), { fault: 'hang' as const })] : []),
    { toolCalls: [{ name: 'task_return', arguments: { summary: 'Checker says B.', artifacts: [{ path: 'summaries/names.md' }] } }] },
  );
}

test('a new runtime resumes a run stopped between rounds from the store alone, to the same outcome', async () => {
  scriptRun('return');
  const uninterrupted = await harness.start();
  expect(uninterrupted.reply).toBe('Reply with Critic says A. and Checker says B.');
  harness.server.reset();

  scriptRun('hang');
  const criticEnded = harness.nextEvent((event) => event.type === 'task-end');
  const stopped = harness.start();
  await Promise.all([criticEnded, checkerHanging]);
  await harness.runtime.shutdown();
  const suspended = await stopped;
  expect(suspended.suspended).toBe(true);
  const runId = suspended.run.id;
  expect((await harness.store.getRun(runId))?.status).toBe('running');
  const criticBefore = (await harness.store.listTasks(runId)).find((task) => task.workspaceKey === 'scene-critic');
  const criticCapsuleBefore = (await harness.store.readFile(runId, criticBefore?.resultRef ?? ''))?.content;

  const resumed = await harness.newRuntime().resumeRun(runId, { resolveModel: harness.resolveModel });

  expect(resumed.reply).toBe(uninterrupted.reply);
  expect(resumed.run.status).toBe('completed');
  expect(resumed.run.usage.rounds).toBe(uninterrupted.run.usage.rounds);
  expect(resumed.run.usage.toolCalls).toBe(uninterrupted.run.usage.toolCalls);
  // Nothing finished was redone: one critic call in all, the checker's first round and the root's first two rounds once.
  expect(harness.server.requests.filter(isCritic)).toHaveLength(1);
  expect(harness.server.requests.filter(isChecker).map((request) => request.outcome)).toEqual(['answered', 'client-closed', 'answered']);
  expect(harness.server.requests.filter(isRoot)).toHaveLength(3);
  const tasks = await harness.store.listTasks(runId);
  expect(tasks.map((task) => [task.workspaceKey, task.status])).toEqual([
    ['scene-critic', 'completed'],
    ['continuity-checker', 'completed'],
  ]);
  expect((await harness.store.readFile(runId, criticBefore?.resultRef ?? ''))?.content).toBe(criticCapsuleBefore);
  const types = (await harness.journal(runId)).map((event) => event.type);
  expect(types).toContain('run-resume');
  expect(types.at(-1)).toBe('run-end');
});

test('resuming a run that already ended gives its stored outcome without calling the model', async () => {
  harness.server.queue(isRoot, { content: 'Once.' });
  const first = await harness.start();
  const requestsBefore = harness.server.requests.length;

  const actual = await harness.newRuntime().resumeRun(first.run.id, { resolveModel: harness.resolveModel });

  expect(actual.reply).toBe('Once.');
  expect(harness.server.requests.length).toBe(requestsBefore);
});

test('a root stopped right after its final answer was stored ends with that answer, without asking again', async () => {
  harness.server.queue(isRoot, { content: 'Stored answer.' });
  // A store that stops the runtime the moment the answer is saved in the root's history, as a
  // service worker might be stopped between two writes.
  let stopping: Promise<void> = Promise.resolve();
  const stoppingStore: RunStore = new Proxy(harness.store, {
    get(target, property, receiver) {
      const stopsAfter = (invocation: AgentInvocation) => {
        const last = invocation.messages.at(-1);
        if (invocation.kind === 'root' && invocation.status === 'running' && last?.role === 'assistant' && last.content === 'Stored answer.') {
          stopping = runtime.shutdown();
        }
      };
      if (property === 'putInvocation') {
        return async (invocation: AgentInvocation) => {
          await target.putInvocation(invocation);
          stopsAfter(invocation);
        };
      }
      if (property === 'saveStep') {
        return async (step: RunStep) => {
          const stored = await target.saveStep(step);
          for (const invocation of step.invocations ?? []) stopsAfter(invocation);
          return stored;
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  const runtime = harness.newRuntime(stoppingStore);
  const first = await harness.startOn(runtime);
  await stopping;
  expect(first.suspended).toBe(true);
  expect((await harness.store.getRun(first.run.id))?.status).toBe('running');

  const actual = await harness.newRuntime().resumeRun(first.run.id, { resolveModel: harness.resolveModel });

  expect(actual.reply).toBe('Stored answer.');
  expect(actual.run.status).toBe('completed');
  expect(harness.server.requests).toHaveLength(1);
});

test('a delegate call re-dispatched on resume does not create its task twice', async () => {
  harness.server.queue(
    isRoot,
    { toolCalls: [delegate('scene-critic', 'Critique')] },
    { toolCalls: [{ name: 'agent_await', arguments: {} }] },
    (request) => ({ content: request.lastMessageText.includes('Critic says A.') ? 'With the critique.' : 'Without.' }),
  );
  harness.server.queue(isCritic, { toolCalls: [{ name: 'task_return', arguments: { summary: 'Critic says A.' } }] });
  // The runtime dies right after the task record is written, before the delegate call has its result:
  // a runtime that wrote each record on its own could leave a store so (today the task and the
  // result are one step); this store keeps the step's task and child and drops the rest.
  let frozen = false;
  const splitting: RunStore = new Proxy(harness.store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      if (property === 'onJournalAppended' || property === 'close') return method;
      return async (...args: unknown[]) => {
        if (frozen) return new Promise(() => undefined);
        const step = args[0] as RunStep;
        const queued = property === 'saveStep' ? (step.tasks ?? []).filter((task: AgentTaskRecord) => task.status === 'queued') : [];
        if (queued.length === 0) return method(...args);
        frozen = true;
        for (const child of step.invocations ?? []) if (child.kind === 'subagent') await target.putInvocation(child);
        for (const task of queued) await target.putTask(task);
        return new Promise(() => undefined);
      };
    },
  });
  const dying = harness.newRuntime(splitting);
  void harness.startOn(dying);
  const created = await harness.nextEvent((event) => event.type === 'run-start');
  while ((await harness.store.listTasks(created.runId)).length === 0) await new Promise((resolve) => setTimeout(resolve, 10));

  const actual = await harness.newRuntime().resumeRun(created.runId, { resolveModel: harness.resolveModel });

  expect(actual.reply).toBe('With the critique.');
  expect(await harness.store.listTasks(created.runId)).toHaveLength(1);
  expect(harness.server.requests.filter(isRoot)).toHaveLength(3);
});
