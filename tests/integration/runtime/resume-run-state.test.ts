import { afterEach, expect, test } from 'vitest';
import type { EarlyReply } from '../../../src/runtime/agent-runtime';
import { CHILD_WRAP_UP_INSTRUCTION, TASK_RETURN_NUDGE } from '../../../src/runtime/turn-resolution';
import type { RunStore } from '../../../src/store/run-store';
import { delegate, isChecker, isCritic, isRoot, startHarness, storeDyingWhen, taskHistory, type Harness } from './runtime-harness';

/**
 * Issue 20 item 3: a run's state is its records, so a resumed run behaves like the one that was
 * stopped: its reply deadline (case 3), its spend cap, its loop's next step.
 */
let harness: Harness;
afterEach(async () => {
  await harness.close();
});

const taskReturn = (summary: string) => ({ toolCalls: [{ name: 'task_return', arguments: { summary } }] });
const used = (total: number) => ({ usage: { prompt_tokens: total - 10, completion_tokens: 10, total_tokens: total } });
const awaitAll = { toolCalls: [{ name: 'agent_await', arguments: {} }] };

/** Starts a run on a runtime over a store that dies once `diesWhen` holds, and waits for the death. */
async function runUntilDeath(diesWhen: (store: RunStore) => Promise<boolean>, start: Parameters<Harness['startOn']>[1] = {}): Promise<string> {
  const dying = storeDyingWhen(harness.store, diesWhen);
  const created = harness.nextEvent((event) => event.type === 'run-start');
  void harness.startOn(harness.newRuntime(dying.store), start);
  const { runId } = await created;
  await dying.frozen;
  return runId;
}

test('a run resumed after a worker stop keeps its reply deadline: the root is told, replies, and the helper finishes after it (case 3)', async () => {
  harness = await startHarness();
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, awaitAll, { content: 'The duke yields.' });
  let arrived: () => void = () => undefined;
  const criticAsked = new Promise<void>((resolve) => (arrived = resolve));
  let replied: (reply: EarlyReply) => void = () => undefined;
  const earlyReply = new Promise<EarlyReply>((resolve) => (replied = resolve));
  // Before the stop the critic's call hangs; after it, the critic answers once the reply went out
  // (or after a while, so that a run without its deadline ends too, and says so).
  harness.queueLater(isCritic, () => (arrived(), { fault: 'hang' as const }), async () => {
    await Promise.race([earlyReply, new Promise((resolve) => setTimeout(resolve, 4_000))]);
    return taskReturn('The duke was wounded earlier.');
  });
  const awaiting = harness.nextEvent((event) => event.type === 'tool-call-start' && event.data.tool === 'agent.await');
  const stopped = harness.start({ replyDeadlineMs: 1_500 });
  await Promise.all([criticAsked, awaiting]);
  await harness.runtime.shutdown();
  const { run, suspended } = await stopped;
  expect(suspended).toBe(true);
  expect((await harness.store.getRun(run.id))?.replyDueAt).toBe(run.createdAt + 1_500);

  const resumed = await harness.newRuntime().resumeRun(run.id, { resolveModel: harness.resolveModel, onEarlyReply: replied });

  const early = await Promise.race([earlyReply, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 100))]);
  expect(early).toEqual({ reply: 'The duke yields.', replyStreamed: false, stillWorking: 1 });
  const rootResults = harness.server.requests.filter(isRoot).map((request) => request.lastMessageText);
  expect(rootResults.filter((text) => text.includes('Your reply is due now'))).toHaveLength(1);
  expect(resumed.run.status).toBe('completed');
  expect(resumed.run.repliedAt).toBeTypeOf('number');
  expect((await harness.store.listTasks(run.id))[0]?.status).toBe('completed');
});

test('a runtime that stops stores what its runs noted before it lets go: nothing of the stopped run is written after', async () => {
  harness = await startHarness();
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, awaitAll);
  harness.queueLater(isCritic, () => ({ fault: 'hang' as const }));
  const criticCalled = harness.nextEvent((event) => event.type === 'model-call-start' && event.taskId !== undefined);
  const awaiting = harness.nextEvent((event) => event.type === 'tool-call-start' && event.data.tool === 'agent.await');
  const stopped = harness.start();
  await Promise.all([criticCalled, awaiting]);
  await harness.runtime.shutdown();
  const { run, suspended } = await stopped;
  expect(suspended).toBe(true);

  const atStop = await harness.store.readJournal(run.id);
  // The helper's cut call is on record as the stop's, and a write that came later (a journal's idle
  // flush) would land after a new worker's resume or its interrupted mark.
  expect(atStop.filter((event) => event.type === 'model-call-end' && event.taskId !== undefined).map((event) => event.data)).toEqual([
    expect.objectContaining({ ok: false, error: expect.objectContaining({ code: 'run-suspended' }) }),
  ]);
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(await harness.store.readJournal(run.id)).toEqual(atStop);
});

test('a run resumed at its spend cap keeps it: the cap is recorded once, and the child makes only its wrap-up call', async () => {
  harness = await startHarness({ defaults: { maxRunTokens: 1_000, maxRunningChildren: 1 } });
  harness.server.queue(
    isRoot,
    { toolCalls: [delegate('scene-critic', 'Critique'), delegate('continuity-checker', 'Check')], ...used(300) },
    { toolCalls: [{ name: 'agent_await', arguments: {} }], ...used(100) },
    { content: 'The reply, within the limit.', ...used(100) },
  );
  harness.server.queue(
    isCritic,
    { toolCalls: [{ name: 'workspace_list', arguments: {} }], ...used(700) },
    { toolCalls: [{ name: 'task_return', arguments: { summary: 'What I had at the limit.' } }], ...used(50) },
  );
  const runId = await runUntilDeath(async (store) => {
    const [run] = await store.listRuns();
    if (!run) return false;
    const history = await taskHistory(store, run.id, 'scene-critic');
    return run.tokenCapReachedAt !== undefined && history.at(-1)?.content === CHILD_WRAP_UP_INSTRUCTION;
  });
  expect(harness.server.requests.filter(isCritic)).toHaveLength(1);
  const stoppedRun = await harness.store.getRun(runId);
  expect(stoppedRun?.tokenCap).toBe(1_000);

  const actual = await harness.newRuntime().resumeRun(runId, { resolveModel: harness.resolveModel, onProgress: (line) => harness.progress.push(line) });

  expect(actual.reply).toBe('The reply, within the limit.');
  const criticRequests = harness.server.requests.filter(isCritic);
  expect(criticRequests).toHaveLength(2);
  expect(criticRequests[1]?.toolNames).toEqual(['task_return']);
  expect(harness.server.requests.filter(isChecker)).toHaveLength(0);
  // Recorded once, before the stop: the resumed run neither records nor announces it again.
  expect((await harness.store.getRun(runId))?.tokenCapReachedAt).toBe(stoppedRun?.tokenCapReachedAt);
  const capEvents = (await harness.journal(runId)).filter((event) => event.type === 'token-cap-reached');
  expect(capEvents.length).toBeLessThanOrEqual(1);
  expect(harness.progress.filter((line) => line.startsWith('Token limit reached'))).toHaveLength(1);
  expect((await harness.store.listTasks(runId)).map((task) => [task.workspaceKey, task.status])).toEqual([
    ['scene-critic', 'completed'],
    ['continuity-checker', 'cancelled'],
  ]);
});

test('a child resumed after it was told to call task_return keeps that step: its next text is its result, not a second nudge', async () => {
  harness = await startHarness();
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, awaitAll, (request) => ({ content: `Reply: ${request.lastMessageText}` }));
  harness.server.queue(isCritic, { content: 'A first thought.' }, { content: 'The critique, in plain text.' });
  const runId = await runUntilDeath(async (store) => {
    const [run] = await store.listRuns();
    return run !== undefined && (await taskHistory(store, run.id, 'scene-critic')).at(-1)?.content === TASK_RETURN_NUDGE;
  });
  const [before] = await harness.store.listTasks(runId);
  expect((await harness.store.getInvocation(before?.childInvocationId ?? ''))?.nextStep).toEqual({ kind: 'task-return-nudged' });

  const actual = await harness.newRuntime().resumeRun(runId, { resolveModel: harness.resolveModel });

  expect(actual.reply).toContain('The critique, in plain text.');
  const history = await taskHistory(harness.store, runId, 'scene-critic');
  expect(history.filter((message) => message.content === TASK_RETURN_NUDGE)).toHaveLength(1);
  expect(harness.server.requests.filter(isCritic)).toHaveLength(2);
});
