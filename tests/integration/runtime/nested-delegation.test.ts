import { afterEach, expect, test } from 'vitest';
import type { AgentTaskRecord } from '../../../src/records/task';
import type { SettingsDefaults } from '../../../src/settings/schema';
import type { ScriptedRequest } from '../../support/scripted-model-server';
import { delegate, isChecker, isCritic, isRoot, startHarness, testProfiles, type Harness } from './runtime-harness';

/**
 * Nested delegation: the root gives the scene critic a task, and the critic (whose profile allows
 * nested delegation) hands parts of it to continuity checkers. Every call goes through the real SDK
 * to the scripted server; the records are read back from the store.
 */
let harness: Harness;
afterEach(async () => {
  await harness.close();
});

const AGENT_TOOLS = ['agent.list', 'agent.delegate', 'agent.await', 'agent.cancel'] as const;
const WORK_TOOLS = ['workspace.list', 'workspace.read', 'workspace.write', 'chat.read'] as const;
const nested = { canDelegate: true, allowNestedDelegation: true };

async function startNested(options: { defaults?: Partial<SettingsDefaults>; checkerNested?: boolean; criticTimeoutMs?: number } = {}): Promise<void> {
  harness = await startHarness({
    defaults: options.defaults,
    profiles: testProfiles({
      critic: {
        tools: { allow: [...AGENT_TOOLS, ...WORK_TOOLS] },
        delegation: { ...nested, allowedAgents: ['continuity-checker'] },
        budget: { maxRounds: 6, maxToolCalls: 12, ...(options.criticTimeoutMs ? { timeoutMs: options.criticTimeoutMs } : {}) },
      },
      checker: options.checkerNested ? { tools: { allow: [...AGENT_TOOLS, ...WORK_TOOLS] }, delegation: nested } : {},
    }),
  });
}

const returns = (summary: string) => ({ toolCalls: [{ name: 'task_return', arguments: { summary } }] });
const awaitAll = { toolCalls: [{ name: 'agent_await', arguments: {} }] };
const briefed = (title: string) => (request: ScriptedRequest) => isChecker(request) && request.allText.includes(`${title}, please.`);
/** The root delegates one critique, waits for it and replies with what it read. */
function scriptRoot(): void {
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, awaitAll, (request) => ({ content: `Reply: ${request.lastMessageText}` }));
}

/** A reply that hangs, and a promise that resolves once the server took the request it answers. */
function hangingArrival(): { arrived: Promise<void>; reply: () => { fault: 'hang' } } {
  let arrive: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  return { arrived, reply: () => (arrive(), { fault: 'hang' as const }) };
}

function byKey(tasks: readonly AgentTaskRecord[], key: string): AgentTaskRecord {
  const task = tasks.find((candidate) => candidate.workspaceKey === key);
  if (!task) throw new Error(`no task ${key} among ${tasks.map((candidate) => candidate.workspaceKey).join(', ')}`);
  return task;
}

test('a child allowed nested delegation delegates once more, and its result reaches the root through it', async () => {
  await startNested();
  scriptRoot();
  harness.server.queue(isCritic, { toolCalls: [delegate('continuity-checker', 'Check names')] }, awaitAll, (request) =>
    returns(request.lastMessageText.includes('The duke is named Orsin.') ? 'Critic: names check out (Orsin).' : 'Critic: no check.'),
  );
  harness.server.queue(isChecker, returns('The duke is named Orsin.'));

  const actual = await harness.start();

  expect(actual.run.status).toBe('completed');
  expect(actual.reply).toContain('Critic: names check out (Orsin).');
  const tasks = await harness.store.listTasks(actual.run.id);
  const critic = byKey(tasks, 'scene-critic');
  const checker = byKey(tasks, 'continuity-checker');
  expect(checker.parentInvocationId).toBe(critic.childInvocationId);
  expect([critic.status, checker.status]).toEqual(['completed', 'completed']);
  expect((await harness.store.getInvocation(checker.childInvocationId))?.depth).toBe(2);
  expect(harness.server.requests.filter(isCritic)[0]?.toolNames).toEqual(expect.arrayContaining(['agent_list', 'agent_delegate', 'agent_await', 'agent_cancel', 'task_return']));
  expect(harness.server.requests.filter(isChecker)[0]?.toolNames).not.toContain('agent_delegate');
  // Model-facing text names tasks by their names, never by runtime ids.
  for (const request of harness.server.requests) {
    for (const task of tasks) {
      expect(request.allText).not.toContain(task.id);
      expect(request.allText).not.toContain(task.childInvocationId);
    }
  }
});

test('a grandchild at maxDepth is not offered agent tools, and a delegate call is refused with a clear tool error', async () => {
  await startNested({ checkerNested: true });
  scriptRoot();
  harness.server.queue(isCritic, { toolCalls: [delegate('continuity-checker', 'Check names')] }, awaitAll, returns('Critic done.'));
  harness.server.queue(isChecker, { toolCalls: [delegate('scene-critic', 'Go deeper')] }, returns('Checked it myself.'));

  const actual = await harness.start();

  expect(actual.run.status).toBe('completed');
  const [first, second] = harness.server.requests.filter(isChecker);
  expect(first?.toolNames.filter((name) => name.startsWith('agent_'))).toEqual([]);
  expect(second?.lastMessageText).toContain('agent_delegate is not available to you.');
  expect(second?.lastMessageText).toContain('deepest level of delegation this run allows');
  const tasks = await harness.store.listTasks(actual.run.id);
  expect(tasks.map((task) => task.workspaceKey)).toEqual(['scene-critic', 'continuity-checker']);
});

test('maxDepth 3 lets a grandchild allowed nested delegation delegate too; maxDepth 1 keeps children from delegating', async () => {
  await startNested({ checkerNested: true, defaults: { maxDepth: 3 } });
  scriptRoot();
  harness.server.queue(isCritic, { toolCalls: [delegate('continuity-checker', 'Check names')] }, awaitAll, returns('Critic done.'));
  harness.server.queue(isChecker, returns('Checked.'));
  const deep = await harness.start();
  expect(deep.run.status).toBe('completed');
  expect(harness.server.requests.filter(isChecker)[0]?.toolNames).toEqual(expect.arrayContaining(['agent_list', 'agent_delegate', 'agent_await', 'agent_cancel']));
  await harness.close();

  await startNested({ defaults: { maxDepth: 1 } });
  scriptRoot();
  harness.server.queue(isCritic, returns('Critic alone.'));
  const shallow = await harness.start();

  expect(shallow.reply).toContain('Critic alone.');
  expect(harness.server.requests.filter(isCritic)[0]?.toolNames.filter((name) => name.startsWith('agent_'))).toEqual([]);
});

test('every task at every depth counts against the run’s task cap', async () => {
  await startNested({ defaults: { maxTasksPerRun: 2 } });
  scriptRoot();
  harness.server.queue(
    isCritic,
    { toolCalls: [delegate('continuity-checker', 'Check names'), delegate('continuity-checker', 'Check dates')] },
    awaitAll,
    returns('Critic done.'),
  );
  harness.server.queue(isChecker, returns('Names fine.'));

  const actual = await harness.start();

  expect(actual.run.status).toBe('completed');
  const tasks = await harness.store.listTasks(actual.run.id);
  expect(tasks.map((task) => task.workspaceKey)).toEqual(['scene-critic', 'continuity-checker']);
  const refused = harness.server.requests.filter(isCritic)[1]?.allText ?? '';
  expect(refused).toContain('This run already has its 2 delegated tasks, the most it may have.');
});

test('cancelling a task ends its whole subtree, and a result its subtree already gave stays stored', async () => {
  await startNested();
  scriptRoot();
  harness.server.queue(isCritic, { toolCalls: [delegate('continuity-checker', 'Quick check'), delegate('continuity-checker', 'Slow check')] }, awaitAll);
  harness.queueLater(briefed('Quick check'), returns('Quick result.'));
  const slow = hangingArrival();
  harness.queueLater(briefed('Slow check'), slow.reply);
  const quickEnded = harness.nextEvent((event) => event.type === 'task-end' && event.data.workspaceKey === 'continuity-checker');
  const outcome = harness.start();
  const [{ runId }] = await Promise.all([quickEnded, slow.arrived]);
  const critic = byKey(await harness.store.listTasks(runId), 'scene-critic');

  harness.runtime.cancelTask(runId, critic.id);
  const actual = await outcome;

  expect(actual.run.status).toBe('completed');
  const tasks = await harness.store.listTasks(runId);
  expect(tasks.map((task) => [task.workspaceKey, task.status])).toEqual([
    ['scene-critic', 'cancelled'],
    ['continuity-checker', 'completed'],
    ['continuity-checker-002', 'cancelled'],
  ]);
  const slowTask = byKey(tasks, 'continuity-checker-002');
  expect(slowTask.error).toEqual({ code: 'task-parent-cancelled', message: 'The agent that gave this task was cancelled.' });
  expect((await harness.store.getInvocation(slowTask.childInvocationId))?.status).toBe('cancelled');
  const quick = byKey(tasks, 'continuity-checker');
  expect(await harness.store.readFile(runId, quick.resultRef ?? 'none')).toBeDefined();
  expect((await harness.store.readFile(runId, 'summaries/agents/continuity-checker/result.md'))?.content).toContain('Quick result.');
  expect(harness.server.requests.find(briefed('Slow check'))?.outcome).toBe('client-closed');
});

test('a parent that fails ends its subtree; the root gets the failed capsule and still answers', async () => {
  await startNested();
  scriptRoot();
  const checker = hangingArrival();
  harness.queueLater(isCritic, { toolCalls: [delegate('continuity-checker', 'Slow check')] }, async () => {
    await checker.arrived;
    return { fault: 'status', status: 400, message: 'The critic model broke.' };
  });
  harness.queueLater(isChecker, checker.reply);

  const actual = await harness.start();

  expect(actual.run.status).toBe('completed');
  expect(actual.reply).toContain('scene-critic — failed');
  const tasks = await harness.store.listTasks(actual.run.id);
  expect(tasks.map((task) => [task.workspaceKey, task.status])).toEqual([
    ['scene-critic', 'failed'],
    ['continuity-checker', 'cancelled'],
  ]);
  expect(byKey(tasks, 'continuity-checker').error).toEqual({ code: 'task-parent-failed', message: 'The agent that gave this task failed before this task finished.' });
});

test('a run stopped with a grandchild mid-task resumes it, and the result travels up to the reply', async () => {
  await startNested();
  let hanging: () => void = () => undefined;
  const checkerHanging = new Promise<void>((resolve) => (hanging = resolve));
  scriptRoot();
  harness.server.queue(isCritic, { toolCalls: [delegate('continuity-checker', 'Check names')] }, awaitAll, (request) =>
    returns(request.lastMessageText.includes('Orsin is consistent.') ? 'Critic relays: Orsin is consistent.' : 'Critic: nothing.'),
  );
  harness.server.queue(
    isChecker,
    { toolCalls: [{ name: 'workspace_write', arguments: { path: 'summaries/names.md', content: 'Orsin' } }] },
    () => (hanging(), { fault: 'hang' as const }),
    returns('Orsin is consistent.'),
  );
  const stopped = harness.start();
  await checkerHanging;
  await harness.runtime.shutdown();
  const suspended = await stopped;
  expect(suspended.suspended).toBe(true);
  const runId = suspended.run.id;
  const before = await harness.store.listTasks(runId);
  expect(before.map((task) => [task.workspaceKey, task.status])).toEqual([
    ['scene-critic', 'running'],
    ['continuity-checker', 'running'],
  ]);

  const resumed = await harness.newRuntime().resumeRun(runId, { resolveModel: harness.resolveModel });

  expect(resumed.run.status).toBe('completed');
  expect(resumed.reply).toContain('Critic relays: Orsin is consistent.');
  const after = await harness.store.listTasks(runId);
  expect(after.map((task) => [task.workspaceKey, task.status])).toEqual([
    ['scene-critic', 'completed'],
    ['continuity-checker', 'completed'],
  ]);
  expect(harness.server.requests.filter(isChecker).map((request) => request.outcome)).toEqual(['answered', 'client-closed', 'answered']);
  // The critic's delegation was not made again: one checker task, one critic first round.
  expect(harness.server.requests.filter(isCritic)[0]?.toolResultCount).toBe(0);
  expect(harness.server.requests.filter((request) => isCritic(request) && request.toolResultCount === 0)).toHaveLength(1);
});

test('a task whose parent ended while the runtime was stopped is ended with it on resume, never started again', async () => {
  await startNested();
  scriptRoot();
  const critic = hangingArrival();
  const checker = hangingArrival();
  harness.queueLater(isCritic, { toolCalls: [delegate('continuity-checker', 'Check names')] }, critic.reply);
  harness.queueLater(isChecker, checker.reply);
  const stopped = harness.start();
  await Promise.all([critic.arrived, checker.arrived]);
  await harness.runtime.shutdown();
  const { run } = await stopped;
  const runId = run.id;
  // As if the runtime died after the critic's end was stored and before its subtree was ended.
  const criticTask = byKey(await harness.store.listTasks(runId), 'scene-critic');
  await harness.store.putTask({ ...criticTask, status: 'completed', endedAt: Date.now() });
  harness.server.reset();
  harness.server.queue(isRoot, { content: 'Went on.' });

  const resumed = await harness.newRuntime().resumeRun(runId, { resolveModel: harness.resolveModel });

  expect(resumed.run.status).toBe('completed');
  const checkerTask = byKey(await harness.store.listTasks(runId), 'continuity-checker');
  expect(checkerTask.status).toBe('cancelled');
  expect(checkerTask.error).toEqual({ code: 'task-parent-completed', message: 'The agent that gave this task finished before this task did.' });
  expect(harness.server.requests.filter(isChecker)).toEqual([]);
});
