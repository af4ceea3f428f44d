import { afterEach, expect, test } from 'vitest';
import type { ScriptedRequest } from '../../support/scripted-model-server';
import {
  delegate,
  hasToolResult,
  isCritic,
  isRoot,
  rootHistory,
  startHarness,
  storeDyingWhen,
  taskHistory,
  testProfiles,
  type Harness,
} from './runtime-harness';

/**
 * Each test kills the runtime the way the browser kills a service worker: its store stops answering
 * right after one write (kept) in a window between two steps, with no cooperative shutdown. A new
 * runtime then resumes the run from the store alone, and must neither lose nor revive anything.
 */
let harness: Harness;
afterEach(async () => {
  await harness.close();
});

const criticReturns = (summary: string) => ({ toolCalls: [{ name: 'task_return', arguments: { summary } }] });
const replyFrom = (request: ScriptedRequest) => ({
  content: request.allText.includes('Critic says A.') && !request.allText.includes('you read its result before') ? 'With the critique.' : 'Without it.',
});

/** Starts a run on a runtime over `dying`, and gives the run's id once its store died. */
async function runUntilDeath(dying: ReturnType<typeof storeDyingWhen>): Promise<string> {
  const created = harness.nextEvent((event) => event.type === 'run-start');
  void harness.startOn(harness.newRuntime(dying.store));
  const { runId } = await created;
  await dying.frozen;
  return runId;
}

test('a result handed over by agent_await is not lost when the runtime dies as the await is recorded', async () => {
  harness = await startHarness();
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, replyFrom);
  harness.server.queue(isCritic, criticReturns('Critic says A.'));
  // Dies at the first write that records the hand-over: the delivery mark or the await's tool result.
  const dying = storeDyingWhen(harness.store, async (store) => {
    const [run] = await store.listRuns();
    const tasks = run ? await store.listTasks(run.id) : [];
    return tasks.some((task) => task.resultDeliveredAt !== undefined) || hasToolResult(await rootHistory(store), 'Critic says A.');
  });
  const runId = await runUntilDeath(dying);

  const actual = await harness.newRuntime().resumeRun(runId, { resolveModel: harness.resolveModel });

  expect(actual.reply).toBe('With the critique.');
  expect(harness.server.requests.filter(isCritic)).toHaveLength(1);
});

test('a task cancelled just before the runtime died stays cancelled: resume never starts it again', async () => {
  harness = await startHarness();
  harness.server.queue(
    isRoot,
    { toolCalls: [delegate('scene-critic', 'Critique')] },
    { toolCalls: [{ name: 'agent_cancel', arguments: { tasks: ['scene-critic'] } }] },
    { toolCalls: [{ name: 'agent_await', arguments: {} }] },
    (request) => ({ content: request.allText.includes('Late critique.') ? 'Used a cancelled task.' : 'Went on without it.' }),
  );
  harness.server.queue(isCritic, { fault: 'hang' }, criticReturns('Late critique.'));
  // Dies at the first write that records the cancel, whichever record that is.
  const dying = storeDyingWhen(harness.store, async (store) => {
    const [run] = await store.listRuns();
    const [task] = run ? await store.listTasks(run.id) : [];
    if (!task) return false;
    return task.status === 'cancelled' || (await store.getInvocation(task.childInvocationId))?.status === 'cancelled';
  });
  const runId = await runUntilDeath(dying);
  const resumeSeq = (await harness.journal(runId)).length;

  const actual = await harness.newRuntime().resumeRun(runId, { resolveModel: harness.resolveModel });

  expect(actual.reply).toBe('Went on without it.');
  const [task] = await harness.store.listTasks(runId);
  expect(task?.status).toBe('cancelled');
  expect((await harness.store.getInvocation(task?.childInvocationId ?? ''))?.status).toBe('cancelled');
  expect(harness.server.requests.filter(isCritic)).toHaveLength(1);
  const afterResume = (await harness.journal(runId)).slice(resumeSeq);
  expect(afterResume.filter((event) => event.type === 'task-start')).toEqual([]);
});

test('a task working when the runtime died is not announced as started again', async () => {
  harness = await startHarness();
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, replyFrom);
  harness.server.queue(
    isCritic,
    { toolCalls: [{ name: 'workspace_write', arguments: { path: 'summaries/notes.md', content: 'The duke lies.' } }] },
    criticReturns('Critic says A.'),
  );
  // Dies right after the critic's first tool result is stored, with the critic mid-task.
  const dying = storeDyingWhen(harness.store, async (store) => {
    const [run] = await store.listRuns();
    return run !== undefined && hasToolResult(await taskHistory(store, run.id, 'scene-critic'), 'summaries/notes.md');
  });
  const runId = await runUntilDeath(dying);
  const progressBefore = [...harness.progress];
  const resumedProgress: string[] = [];

  const actual = await harness.newRuntime().resumeRun(runId, { resolveModel: harness.resolveModel, onProgress: (line) => resumedProgress.push(line) });

  expect(actual.reply).toBe('With the critique.');
  expect(progressBefore).toEqual(['scene-critic · Critique — started']);
  expect(resumedProgress).toEqual(['scene-critic · Critique — done']);
  const starts = (await harness.journal(runId)).filter((event) => event.type === 'task-start');
  expect(starts).toHaveLength(1);
});

test('a "meanwhile finished" line the root was given is not given again after a restart', async () => {
  harness = await startHarness();
  const criticEnded = () => harness.nextEvent((event) => event.type === 'task-end');
  let ended: Promise<unknown> = Promise.resolve();
  harness.queueLater(
    isRoot,
    () => ((ended = criticEnded()), { toolCalls: [delegate('scene-critic', 'Critique')] }),
    async () => (await ended, { toolCalls: [{ name: 'workspace_write', arguments: { path: 'scratch/plan.md', content: 'Plan.' } }] }),
    { toolCalls: [{ name: 'workspace_list', arguments: {} }] },
    { toolCalls: [{ name: 'agent_await', arguments: {} }] },
    replyFrom,
  );
  harness.server.queue(isCritic, criticReturns('Critic says A.'));
  const dying = storeDyingWhen(harness.store, async (store) => hasToolResult(await rootHistory(store), 'Meanwhile finished'));
  const runId = await runUntilDeath(dying);

  const actual = await harness.newRuntime().resumeRun(runId, { resolveModel: harness.resolveModel });

  expect(actual.reply).toBe('With the critique.');
  const lastRootRequest = harness.server.requests.filter(isRoot).at(-1);
  const announcements = (lastRootRequest?.body.messages ?? []).filter((message) => message.role === 'tool' && String(message.content).includes('Meanwhile finished'));
  expect(announcements).toHaveLength(1);
});

test('a task’s deadline is kept across a restart: time since its first model call still counts', async () => {
  harness = await startHarness({ profiles: testProfiles({ critic: { budget: { maxRounds: 4, maxToolCalls: 6, timeoutMs: 60_000 } } }) });
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, replyFrom);
  harness.server.queue(
    isCritic,
    { toolCalls: [{ name: 'workspace_write', arguments: { path: 'summaries/notes.md', content: 'The duke lies.' } }] },
    criticReturns('Critic says A.'),
  );
  const dying = storeDyingWhen(harness.store, async (store) => {
    const [run] = await store.listRuns();
    return run !== undefined && hasToolResult(await taskHistory(store, run.id, 'scene-critic'), 'summaries/notes.md');
  });
  const runId = await runUntilDeath(dying);
  // The worker comes back two minutes later: the critic's 60 s are long gone.
  const later = () => Date.now() + 120_000;

  const actual = await harness.newRuntime(undefined, { now: later }).resumeRun(runId, { resolveModel: harness.resolveModel });

  expect(actual.reply).toBe('Without it.');
  const [task] = await harness.store.listTasks(runId);
  expect(task).toMatchObject({ status: 'failed', error: { code: 'task-timeout' } });
  expect(harness.server.requests.filter(isCritic)).toHaveLength(1);
});

test('a result stored just before the runtime died is used as it is: resume does not run its child again', async () => {
  harness = await startHarness();
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, replyFrom);
  harness.server.queue(isCritic, criticReturns('Critic says A.'), criticReturns('Critic says B.'));
  // Dies as the task is pointed at its stored capsule, before the task's end is recorded.
  const dying = storeDyingWhen(harness.store, async (store) => {
    const [run] = await store.listRuns();
    return run !== undefined && (await store.listTasks(run.id)).some((task) => task.resultRef !== undefined);
  });
  const runId = await runUntilDeath(dying);
  const [stored] = await harness.store.listTasks(runId);
  const capsuleBefore = (await harness.store.readFile(runId, stored?.resultRef ?? ''))?.content;
  const resumeSeq = (await harness.journal(runId)).length;
  const later = () => Date.now() + 60_000;

  const actual = await harness.newRuntime(undefined, { now: later }).resumeRun(runId, { resolveModel: harness.resolveModel });

  expect(actual.reply).toBe('With the critique.');
  expect(harness.server.requests.filter(isCritic)).toHaveLength(1);
  expect((await harness.store.readFile(runId, stored?.resultRef ?? ''))?.content).toBe(capsuleBefore);
  const criticSteps = (await harness.journal(runId))
    .slice(resumeSeq)
    .filter((event) => event.invocationId === stored?.childInvocationId && event.type !== 'invocation-end');
  expect(criticSteps).toEqual([]);
  expect((await harness.store.listTasks(runId))[0]?.status).toBe('completed');
});
