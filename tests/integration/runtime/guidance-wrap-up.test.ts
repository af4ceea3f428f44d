import { afterEach, expect, test } from 'vitest';
import type { RunStore } from '../../../src/store/run-store';
import type { ScriptedRequest } from '../../support/scripted-model-server';
import { delegateCritic, isCritic, isRoot, startHarness, storeDyingWhen, taskHistory, testProfiles, type Harness } from './runtime-harness';

// Guidance (issue 25 item 3): a note waiting when an invocation's next request is its wrap-up (a limit
// ended its loop) or the one after a nudge goes into that request, once, even across a worker stop.
let harness: Harness;
afterEach(async () => {
  await harness.close();
});

const NOTE_TEXT = 'the duke is left-handed.';
const NOTE = `Note from the user: ${NOTE_TEXT}`;
const WRAP_UP = 'You have reached the limit of rounds, tool calls or tokens';
const listFiles = { toolCalls: [{ name: 'workspace_list', arguments: {} }] };
const awaitAll = { toolCalls: [{ name: 'agent_await', arguments: {} }] };
/** The critic's answer to its wrap-up: what it returns says whether the note reached it. */
const criticWrapsUp = (request: ScriptedRequest) => ({
  toolCalls: [{ name: 'task_return', arguments: { summary: request.allText.includes(NOTE) ? 'Have him parry with his left hand.' : 'Looks fine.' } }],
});
const rootReply = (request: ScriptedRequest) => ({ content: request.allText.includes('Have him parry with his left hand.') ? 'He parries left-handed.' : 'He parries.' });
/** How many times the note is in a request. */
const noteCount = (request: ScriptedRequest | undefined) => (request?.allText.split(NOTE).length ?? 1) - 1;
const oneRoundCritic = () => testProfiles({ critic: { budget: { maxRounds: 1, maxToolCalls: 10 } } });

async function criticTaskId(store: RunStore): Promise<string | undefined> {
  const [run] = await store.listRuns();
  return run ? (await store.listTasks(run.id))[0]?.id : undefined;
}

test('a note sent while a helper makes its last round goes into its wrap-up request, and changes its result', async () => {
  harness = await startHarness({ profiles: oneRoundCritic() });
  let runId = '';
  harness.queueLater(isCritic, async () => {
    expect(await harness.runtime.sendGuidance(runId, { taskId: await criticTaskId(harness.store), text: NOTE_TEXT })).toMatchObject({ ok: true });
    return listFiles;
  });
  harness.queueLater(isCritic, criticWrapsUp);
  harness.server.queue(isRoot, { toolCalls: [delegateCritic] }, awaitAll, rootReply);

  const outcome = await harness.start({ onRunCreated: (run) => (runId = run.id) });

  expect(outcome.reply).toBe('He parries left-handed.');
  const [first, wrapUp] = harness.server.requests.filter(isCritic);
  expect(noteCount(first)).toBe(0);
  expect(wrapUp?.toolNames).toEqual(['task_return']);
  expect(wrapUp?.allText).toContain(WRAP_UP);
  expect(wrapUp?.lastMessageText).toBe(NOTE);
  const applied = (await harness.journal(runId)).filter((event) => event.type === 'guidance-applied');
  expect(applied.map((event) => event.data.round)).toEqual([2]);
  expect((await harness.store.getRun(runId))?.guidance?.[0]).toMatchObject({ appliedAt: expect.any(Number), appliedRound: 2 });
});

test('a note sent while a helper answers in text goes into the request after the nudge', async () => {
  harness = await startHarness();
  let runId = '';
  harness.queueLater(isCritic, async () => {
    expect(await harness.runtime.sendGuidance(runId, { taskId: await criticTaskId(harness.store), text: NOTE_TEXT })).toMatchObject({ ok: true });
    return { content: 'The scene is fine.' };
  });
  harness.queueLater(isCritic, criticWrapsUp);
  harness.server.queue(isRoot, { toolCalls: [delegateCritic] }, awaitAll, rootReply);

  const outcome = await harness.start({ onRunCreated: (run) => (runId = run.id) });

  expect(outcome.reply).toBe('He parries left-handed.');
  const nudged = harness.server.requests.filter(isCritic)[1];
  expect(nudged?.allText).toContain('Your task is not finished until you call task_return.');
  expect(nudged?.lastMessageText).toBe(NOTE);
  expect(noteCount(nudged)).toBe(1);
});

test('a note to the writer reaches its wrap-up, the call without tools whose text is the reply', async () => {
  harness = await startHarness({ profiles: testProfiles({ root: { budget: { maxRounds: 1, maxToolCalls: 10 } } }) });
  let runId = '';
  harness.queueLater(isRoot, async () => {
    expect(await harness.runtime.sendGuidance(runId, { text: NOTE_TEXT })).toMatchObject({ ok: true });
    return listFiles;
  });
  harness.server.queue(isRoot, (request) => ({ content: request.allText.includes(NOTE) ? 'He parries left-handed.' : 'He parries.' }));

  const outcome = await harness.start({ onRunCreated: (run) => (runId = run.id) });

  expect(outcome.reply).toBe('He parries left-handed.');
  const wrapUp = harness.server.requests.filter(isRoot)[1];
  expect(wrapUp?.toolNames).toEqual([]);
  expect(wrapUp?.lastMessageText).toBe(NOTE);
});

/** The critic's stored invocation, for a store's dying condition. */
async function criticInvocation(store: RunStore) {
  const [run] = await store.listRuns();
  const task = run ? (await store.listTasks(run.id))[0] : undefined;
  return task ? store.getInvocation(task.childInvocationId) : undefined;
}

test.each([
  ['the wrap-up step is stored, before the note went in', async (store: RunStore) => (await criticInvocation(store))?.nextStep?.kind === 'wrap-up'],
  ['the note is in the history, before it was marked applied', async (store: RunStore) => {
    const [run] = await store.listRuns();
    return run !== undefined && (await taskHistory(store, run.id, 'scene-critic')).some((message) => message.content === NOTE);
  }],
])('a worker stop once %s: the resumed wrap-up carries the note exactly once', async (_window, diesWhen) => {
  harness = await startHarness({ profiles: oneRoundCritic() });
  const dying = storeDyingWhen(harness.store, diesWhen);
  const stopping = harness.newRuntime(dying.store);
  let sent: Promise<unknown> = Promise.resolve();
  harness.queueLater(isCritic, async () => {
    // The writer is waiting for the helper before the stop, so the resumed writer's next call is its reply.
    while (harness.server.requests.filter(isRoot).length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    const [run] = await harness.store.listRuns();
    sent = stopping.sendGuidance(run?.id ?? '', { taskId: await criticTaskId(harness.store), text: NOTE_TEXT });
    await sent;
    return listFiles;
  });
  harness.server.queue(isRoot, { toolCalls: [delegateCritic] }, awaitAll);
  const created = harness.nextEvent((event) => event.type === 'run-start');
  void harness.startOn(stopping);
  const { runId } = await created;
  await dying.frozen;
  expect(await sent).toMatchObject({ ok: true });
  expect(harness.server.requests.filter(isCritic)).toHaveLength(1);
  expect((await harness.store.getRun(runId))?.guidance?.[0]?.appliedAt).toBeUndefined();

  harness.queueLater(isCritic, criticWrapsUp);
  harness.server.queue(isRoot, rootReply);
  const resumed = await harness.newRuntime().resumeRun(runId, { resolveModel: harness.resolveModel });

  expect(resumed.reply).toBe('He parries left-handed.');
  const wrapUp = harness.server.requests.filter(isCritic)[1];
  expect(wrapUp?.toolNames).toEqual(['task_return']);
  expect(noteCount(wrapUp)).toBe(1);
  expect((await taskHistory(harness.store, runId, 'scene-critic')).filter((message) => message.content === NOTE)).toHaveLength(1);
  const applied = (await harness.journal(runId)).filter((event) => event.type === 'guidance-applied');
  expect(applied.map((event) => event.data.round)).toEqual([2]);
});
