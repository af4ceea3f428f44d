import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { RunOutcome } from '../../../src/runtime/agent-runtime';
import { CANCEL_REASONS } from '../../../src/runtime/cancel-reasons';
import { isChecker, isCritic, isRoot, startHarness, testProfiles, type Harness, delegate } from './runtime-harness';

let harness: Harness;
afterEach(async () => {
  await harness.close();
});

const hang = { fault: 'hang' as const };

/** A root that delegates to the critic (whose call hangs) and awaits it; the run cancelled, with `reason` if given, once the critic is asked. */
async function cancelWhileTheCriticWorks(reason?: string): Promise<RunOutcome> {
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] });
  harness.server.queue(isCritic, hang);
  const childAsked = harness.nextEvent((event) => event.type === 'model-call-start' && event.taskId !== undefined);
  const outcome = harness.start();
  harness.runtime.cancelRun((await childAsked).runId, reason);
  return outcome;
}

describe('with the test profiles', () => {
  beforeEach(async () => {
    harness = await startHarness();
  });

  test('cancelling one task stops it and keeps the result of the other task', async () => {
    harness.server.queue(
      isRoot,
      { toolCalls: [delegate('scene-critic', 'Critique'), delegate('continuity-checker', 'Check')] },
      { toolCalls: [{ name: 'agent_cancel', arguments: { tasks: ['scene-critic'] } }] },
      { toolCalls: [{ name: 'agent_await', arguments: {} }] },
      { content: 'Done with one.' },
    );
    harness.server.queue(isCritic, hang);
    harness.server.queue(isChecker, { toolCalls: [{ name: 'task_return', arguments: { summary: 'Names are consistent.' } }] });

    const actual = await harness.start();

    expect(actual.reply).toBe('Done with one.');
    const tasks = await harness.store.listTasks(actual.run.id);
    expect(tasks.map((task) => [task.workspaceKey, task.status])).toEqual([
      ['scene-critic', 'cancelled'],
      ['continuity-checker', 'completed'],
    ]);
    const critic = await harness.store.getInvocation(tasks[0]?.childInvocationId ?? '');
    expect(critic?.status).toBe('cancelled');
    const awaited = harness.server.requests.filter(isRoot)[3]?.lastMessageText ?? '';
    expect(awaited).toContain('Names are consistent.');
    expect(awaited).toContain('`scene-critic` — cancelled');
    expect(harness.server.requests.filter(isCritic)[0]?.outcome).toBe('client-closed');
  });

  test('cancelling the run cancels the root and every child, and records it so', async () => {
    const actual = await cancelWhileTheCriticWorks('The user pressed Stop.');

    expect(actual.run.status).toBe('cancelled');
    expect(actual.run.error).toEqual({ code: 'cancelled', message: 'The user pressed Stop.' });
    expect(actual.reply).toBe('');
    const [task] = await harness.store.listTasks(actual.run.id);
    expect(task?.status).toBe('cancelled');
    const invocations = await harness.store.listInvocations(actual.run.id);
    expect(invocations.map((invocation) => invocation.status)).toEqual(['cancelled', 'cancelled']);
    expect((await harness.store.getRun(actual.run.id))?.status).toBe('cancelled');
    expect(harness.progress).toContain('scene-critic · Critique — cancelled');
  });

  test('Stop in the side panel (no words of its own) records why on the run and on its unfinished task, by code', async () => {
    const actual = await cancelWhileTheCriticWorks();

    expect(actual.run.error).toEqual(CANCEL_REASONS.runByUser);
    const [task] = await harness.store.listTasks(actual.run.id);
    expect(task).toMatchObject({ status: 'cancelled', error: CANCEL_REASONS.runByUser });
  });

  test('the page aborting its request cancels the run', async () => {
    harness.server.queue(isRoot, hang);
    const page = new AbortController();
    const rootAsked = harness.nextEvent((event) => event.type === 'model-call-start');
    const outcome = harness.start({ signal: page.signal });
    await rootAsked;

    page.abort();
    const actual = await outcome;

    expect(actual.run.status).toBe('cancelled');
  });

  test('when the root answers, unfinished children are cancelled and recorded so', async () => {
    harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, { content: 'I did not wait.' });
    harness.server.queue(isCritic, hang);

    const actual = await harness.start();

    expect(actual.reply).toBe('I did not wait.');
    expect(actual.run.status).toBe('completed');
    const [task] = await harness.store.listTasks(actual.run.id);
    expect(task).toMatchObject({ status: 'cancelled', error: { code: 'task-run-ended', message: 'The run ended before this task finished.' } });
  });
});

test('a task past its timeout fails with a failed capsule, and the root still answers', async () => {
  harness = await startHarness({ profiles: testProfiles({ critic: { budget: { maxRounds: 4, maxToolCalls: 6, timeoutMs: 1_000 } } }) });
  harness.server.queue(
    isRoot,
    { toolCalls: [delegate('scene-critic', 'Critique')] },
    { toolCalls: [{ name: 'agent_await', arguments: {} }] },
    { content: 'Answered without the critique.' },
  );
  harness.server.queue(isCritic, hang);

  const actual = await harness.start();

  expect(actual.reply).toBe('Answered without the critique.');
  const [task] = await harness.store.listTasks(actual.run.id);
  expect(task).toMatchObject({ status: 'failed', resultStatus: 'failed', error: { code: 'task-timeout' } });
  const awaited = harness.server.requests.filter(isRoot)[2]?.lastMessageText ?? '';
  expect(awaited).toContain('### scene-critic — failed');
  expect(awaited).toContain('The task could not be finished: The task ran out of time after 1 s before returning a result.');
});

test('tasks beyond the run’s running-children limit queue and start when a slot frees up', async () => {
  harness = await startHarness({ defaults: { maxRunningChildren: 1 } });
  harness.server.queue(
    isRoot,
    { toolCalls: [delegate('scene-critic', 'Critique'), delegate('continuity-checker', 'Check')] },
    { toolCalls: [{ name: 'agent_await', arguments: {} }] },
    { content: 'Both done.' },
  );
  harness.server.queue(isCritic, { toolCalls: [{ name: 'task_return', arguments: { summary: 'c' } }] });
  harness.server.queue(isChecker, { toolCalls: [{ name: 'task_return', arguments: { summary: 'k' } }] });

  const actual = await harness.start();

  expect(actual.reply).toBe('Both done.');
  const delegated = harness.server.requests.filter(isRoot)[1]?.allText ?? '';
  expect(delegated).toContain('It is queued and starts as soon as another task finishes.');
  const journal = await harness.journal(actual.run.id);
  const order = journal.filter((event) => event.type === 'task-start' || event.type === 'task-end').map((event) => `${event.type}:${String(event.data['workspaceKey'])}`);
  expect(order).toEqual(['task-start:scene-critic', 'task-end:scene-critic', 'task-start:continuity-checker', 'task-end:continuity-checker']);
});

test('the run’s task limit is a mistake the root can read', async () => {
  harness = await startHarness({ defaults: { maxTasksPerRun: 1 } });
  harness.server.queue(
    isRoot,
    { toolCalls: [delegate('scene-critic', 'Critique'), delegate('continuity-checker', 'Check')] },
    { content: 'Fine.' },
  );
  harness.server.queue(isCritic, hang);

  await harness.start();

  const results = (harness.server.requests.filter(isRoot)[1]?.body.messages ?? []).filter((message) => message.role === 'tool');
  expect(String(results[1]?.content)).toContain('This run already has its 1 delegated tasks, the most it may have.');
});

test('time a task spends waiting for a connection slot does not count against its timeout', async () => {
  const budget = { maxRounds: 4, maxToolCalls: 6, timeoutMs: 2_500 };
  harness = await startHarness({ maxConcurrency: 1, profiles: testProfiles({ critic: { budget }, checker: { budget } }) });
  harness.server.queue(
    isRoot,
    { toolCalls: [delegate('scene-critic', 'Critique'), delegate('continuity-checker', 'Check')] },
    { toolCalls: [{ name: 'agent_await', arguments: {} }] },
    { content: 'Both done.' },
  );
  // Each call takes 1.5 s and the connection takes one at a time: whoever goes second waits 1.5 s first.
  harness.server.queue(isCritic, { delayMs: 1_500, toolCalls: [{ name: 'task_return', arguments: { summary: 'c' } }] });
  harness.server.queue(isChecker, { delayMs: 1_500, toolCalls: [{ name: 'task_return', arguments: { summary: 'k' } }] });

  const actual = await harness.start();

  const tasks = await harness.store.listTasks(actual.run.id);
  expect(tasks.map((task) => [task.workspaceKey, task.status])).toEqual([
    ['scene-critic', 'completed'],
    ['continuity-checker', 'completed'],
  ]);
});

test('time a task spends in retry backoff does not count against its timeout', async () => {
  harness = await startHarness({ profiles: testProfiles({ critic: { budget: { maxRounds: 4, maxToolCalls: 6, timeoutMs: 1_500 } } }) });
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'Done.' });
  harness.server.queue(isCritic, { fault: 'status', status: 429, retryAfter: 2 }, { toolCalls: [{ name: 'task_return', arguments: { summary: 'After the wait.' } }] });

  const actual = await harness.start();

  const [task] = await harness.store.listTasks(actual.run.id);
  expect(task?.status).toBe('completed');
  expect(task?.deadlineAt).toBeDefined();
});
