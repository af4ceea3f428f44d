import { afterEach, beforeEach, expect, test } from 'vitest';
import type { JournalEvent } from '../../../src/records/journal';
import type { AgentRuntime } from '../../../src/runtime/agent-runtime';
import type { ScriptedRequest } from '../../support/scripted-model-server';
import { delegate, isCritic, isRoot, startHarness, testProfiles, type Harness } from './runtime-harness';

let harness: Harness;
beforeEach(async () => {
  // The scene critic's results wait for the user's review; the continuity checker's do not.
  harness = await startHarness({ profiles: testProfiles({ critic: { review: 'ask' } }) });
});
afterEach(async () => {
  await harness.close();
});

const criticReturns = { toolCalls: [{ name: 'task_return', arguments: { summary: 'The duel lacks stakes.', findings: ['The duke has no motive.'] } }] };
const rootResults = (): string[] => harness.server.requests.filter(isRoot).map((request: ScriptedRequest) => request.lastMessageText);
const reviewStarted = () => harness.nextEvent((event) => event.type === 'review-start');

/** Starts a run whose root delegates the critique, then awaits it (all results, or up to `timeoutMs`). */
function startReviewedRun(options: { timeoutMs?: number; runtime?: AgentRuntime } = {}) {
  harness.server.queue(
    isRoot,
    { toolCalls: [delegate('scene-critic', 'Critique')] },
    { toolCalls: [{ name: 'agent_await', arguments: options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs } }] },
    (request) => ({ content: `Reply after: ${request.lastMessageText}` }),
  );
  harness.server.queue(isCritic, criticReturns);
  return options.runtime ? harness.startOn(options.runtime) : harness.start();
}

async function decideWhenAsked(decide: (event: JournalEvent) => Promise<unknown>): Promise<void> {
  await decide(await reviewStarted());
}

test('agent_await sees a held result as awaiting review; the page hears it waits; approve hands it over', async () => {
  // The critic answers at once; the root asks for status only once the result waits for review.
  const asked = reviewStarted();
  harness.queueLater(
    isRoot,
    { toolCalls: [delegate('scene-critic', 'Critique')] },
    async () => (await asked, { toolCalls: [{ name: 'agent_await', arguments: { mode: 'statusOnly' } }] }),
    { toolCalls: [{ name: 'agent_await', arguments: {} }] },
    { content: 'Done.' },
  );
  harness.server.queue(isCritic, criticReturns);
  const statusGiven = harness.nextEvent((event) => event.type === 'tool-call-end' && event.data['tool'] === 'agent.await');
  const approved = (async () => {
    const event = await asked;
    await statusGiven;
    return harness.runtime.reviewTask(event.runId, event.taskId as string, { kind: 'approve' });
  })();

  const actual = await harness.start();

  expect(actual.reply).toBe('Done.');
  expect(await approved).toMatchObject({ ok: true });
  const [, , status, collected] = rootResults();
  expect(status).toContain('`scene-critic` — awaiting review');
  expect(status).not.toContain('The duel lacks stakes.');
  expect(collected).toContain('The duel lacks stakes.');
  expect(collected).toContain('The user reviewed this result and approved it.');
  expect(harness.progress).toContain('scene-critic · Critique — result waits for your review');
  expect(harness.progress).toContain('scene-critic · Critique — result approved');
  const [task] = await harness.store.listTasks(actual.run.id);
  expect(task?.review).toMatchObject({ state: 'approved' });
  // Model-facing text names no runtime ids.
  for (const text of rootResults()) expect(text).not.toContain(task?.id ?? 'no id');
});

test('an edited result reaches the parent as the user wrote it, marked as edited by the user', async () => {
  const decided = decideWhenAsked((event) =>
    harness.runtime.reviewTask(event.runId, event.taskId as string, { kind: 'edit', text: 'The duel is at dawn; the duke fears the river.' }),
  );

  const actual = await startReviewedRun();
  await decided;

  const [, , collected] = rootResults();
  expect(collected).toContain('### scene-critic — edited by the user');
  expect(collected).toContain('The duel is at dawn; the duke fears the river.');
  expect(collected).not.toContain('The duel lacks stakes.');
  expect(actual.reply).toContain('The duel is at dawn; the duke fears the river.');
  const [task] = await harness.store.listTasks(actual.run.id);
  expect(task?.review).toMatchObject({ state: 'edited', editedText: 'The duel is at dawn; the duke fears the river.' });
  // What the root (and sibling agents) read in the task's notes is the edited result too.
  const resultFile = await harness.store.readFile(actual.run.id, 'summaries/agents/scene-critic/result.md');
  expect(resultFile?.content).toContain('Edited by the user');
  expect(resultFile?.content).toContain('The duel is at dawn; the duke fears the river.');
  expect(harness.progress).toContain('scene-critic · Critique — result edited by you');
});

test('a discarded result is not handed over, and the parent is told the user discarded it', async () => {
  const decided = decideWhenAsked((event) => harness.runtime.reviewTask(event.runId, event.taskId as string, { kind: 'discard' }));

  const actual = await startReviewedRun();
  await decided;

  const [, , collected] = rootResults();
  expect(collected).toContain('### scene-critic — discarded');
  expect(collected).toContain('The user reviewed its result and discarded it. Go on without it.');
  expect(collected).not.toContain('The duel lacks stakes.');
  const resultFile = await harness.store.readFile(actual.run.id, 'summaries/agents/scene-critic/result.md');
  expect(resultFile?.content).not.toContain('The duel lacks stakes.');
});

test('a result nobody reviews before the await times out is treated as discarded, and said so; a late decision is refused', async () => {
  const asked = reviewStarted();

  const actual = await startReviewedRun({ timeoutMs: 300 });

  const [, , collected] = rootResults();
  expect(collected).toContain('### scene-critic — discarded');
  expect(collected).toContain('nobody reviewed it before your wait ended, so it is discarded. Go on without it.');
  expect(collected).not.toContain('The duel lacks stakes.');
  const [task] = await harness.store.listTasks(actual.run.id);
  expect(task?.review).toMatchObject({ state: 'discarded', lapse: 'await-timeout' });
  const event = await asked;
  // The run is over; its stored records refuse the decision, saying what happened.
  expect(await harness.runtime.reviewTask(event.runId, event.taskId as string, { kind: 'approve' })).toEqual({
    ok: false,
    code: 'review-not-awaiting',
    message: 'The result of scene-critic no longer waits for review: it was discarded.',
  });
});

test('a decision on a result that no longer waits is refused with what happened', async () => {
  const outcomes = decideWhenAsked(async (event) => {
    const first = await harness.runtime.reviewTask(event.runId, event.taskId as string, { kind: 'discard' });
    const second = await harness.runtime.reviewTask(event.runId, event.taskId as string, { kind: 'approve' });
    expect(first).toMatchObject({ ok: true });
    expect(second).toEqual({ ok: false, code: 'review-not-awaiting', message: 'The result of scene-critic no longer waits for review: it was discarded.' });
  });

  await startReviewedRun();
  await outcomes;
});

test('a worker stop while a result waits keeps it waiting; the new runtime takes the decision', async () => {
  const asked = reviewStarted();
  const awaiting = harness.nextEvent((event) => event.type === 'tool-call-start' && event.data['tool'] === 'agent.await');
  const stopped = startReviewedRun();
  const event = await asked;
  await awaiting;
  await harness.runtime.shutdown();
  const suspended = await stopped;
  expect(suspended.suspended).toBe(true);
  const [held] = await harness.store.listTasks(suspended.run.id);
  expect(held?.review).toMatchObject({ state: 'awaiting' });

  const restarted = harness.newRuntime();
  const resumed = restarted.resumeRun(suspended.run.id, { resolveModel: harness.resolveModel });
  // The resumed root waits in agent_await again; the panel's decision now reaches the new runtime.
  await harness.nextEvent((next) => next.type === 'tool-call-start' && next.data['tool'] === 'agent.await');
  expect(await restarted.reviewTask(event.runId, event.taskId as string, { kind: 'edit', text: 'Kept across the restart.' })).toMatchObject({ ok: true });
  const actual = await resumed;

  expect(actual.run.status).toBe('completed');
  expect(actual.reply).toContain('Kept across the restart.');
  expect(actual.reply).toContain('edited by the user');
});
