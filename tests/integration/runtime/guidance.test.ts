import { afterEach, beforeEach, expect, test } from 'vitest';
import { delegateCritic, isCritic, isRoot, startHarness, type Harness } from './runtime-harness';

// Guidance (issue 25 item 3): a note from the side panel reaches the next model request of a running invocation.
let harness: Harness;
beforeEach(async () => {
  harness = await startHarness();
});
afterEach(async () => {
  await harness.close();
});

const NOTE = 'Note from the user: the duke is left-handed.';
const listFiles = { toolCalls: [{ name: 'workspace_list', arguments: {} }] };
const awaitAll = { toolCalls: [{ name: 'agent_await', arguments: {} }] };

/** Resolves once `predicate` holds, looking every few milliseconds. */
async function until(predicate: () => boolean): Promise<void> {
  while (!predicate()) await new Promise((resolve) => setTimeout(resolve, 5));
}

test('a note to a running helper is in its next request as a user message, and changes what it returns', async () => {
  let runId = '';
  let noted: Promise<unknown> = Promise.resolve();
  harness.queueLater(isCritic, async () => {
    const [task] = await harness.store.listTasks(runId);
    noted = harness.runtime.sendGuidance(runId, { taskId: task?.id, text: 'the duke is left-handed.' });
    await noted;
    return listFiles;
  });
  harness.queueLater(isCritic, (request) => ({
    toolCalls: [{ name: 'task_return', arguments: { summary: request.lastMessageText === NOTE ? 'Have him parry with his left hand.' : 'Looks fine.' } }],
  }));
  harness.server.queue(isRoot, { toolCalls: [delegateCritic] }, awaitAll, { content: 'He parries left-handed.' });
  const outcome = await harness.start({ onRunCreated: (run) => (runId = run.id) });
  expect(await noted).toMatchObject({ ok: true });
  const critic = harness.server.requests.filter(isCritic);
  expect(critic).toHaveLength(2);
  expect(critic[0]?.allText).not.toContain('left-handed');
  expect(critic[1]?.lastMessageText).toBe(NOTE);
  expect(critic[1]?.lastMessage?.role).toBe('user');
  expect(harness.server.requests.filter(isRoot).at(-1)?.lastMessageText).toContain('Have him parry with his left hand.');
  // Never in the page's chat: the root's own history does not carry the helper's note.
  expect(harness.server.requests.filter(isRoot).some((request) => request.allText.includes(NOTE))).toBe(false);
  const journal = await harness.journal(outcome.run.id);
  const sent = journal.find((event) => event.type === 'guidance-sent');
  const applied = journal.find((event) => event.type === 'guidance-applied');
  expect(sent?.taskId).toBeDefined();
  expect(applied?.data).toMatchObject({ noteId: sent?.data.noteId, round: 2 });
  const stored = await harness.store.getRun(outcome.run.id);
  expect(stored?.guidance?.[0]).toMatchObject({ text: 'the duke is left-handed.', appliedAt: expect.any(Number) });
});

test('a note to the writer is in its next request', async () => {
  let runId = '';
  harness.queueLater(isRoot, async () => {
    expect(await harness.runtime.sendGuidance(runId, { text: 'the duke is left-handed.' })).toMatchObject({ ok: true });
    return listFiles;
  });
  harness.server.queue(isRoot, { content: 'He parries.' });
  const outcome = await harness.start({ onRunCreated: (run) => (runId = run.id) });
  expect(outcome.reply).toBe('He parries.');
  const [first, second] = harness.server.requests.filter(isRoot);
  expect(first?.allText).not.toContain(NOTE);
  expect(second?.lastMessageText).toBe(NOTE);
});

test('a second note in the same words as one applied before still goes into the next request', async () => {
  let runId = '';
  const sendNote = async () => {
    expect(await harness.runtime.sendGuidance(runId, { text: 'the duke is left-handed.' })).toMatchObject({ ok: true });
    return listFiles;
  };
  harness.queueLater(isRoot, sendNote, sendNote);
  harness.server.queue(isRoot, { content: 'He parries.' });
  const outcome = await harness.start({ onRunCreated: (run) => (runId = run.id) });
  const [, second, third] = harness.server.requests.filter(isRoot);
  expect(second?.lastMessageText).toBe(NOTE);
  expect(third?.lastMessageText).toBe(NOTE);
  expect(third?.allText.split(NOTE)).toHaveLength(3);
  expect((await harness.store.getRun(outcome.run.id))?.guidance?.map((note) => note.appliedRound)).toEqual([2, 3]);
});

test('a note sent but not applied when the worker stopped reaches the resumed run’s next request, once', async () => {
  let runId = '';
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  harness.queueLater(isRoot, async () => {
    await held;
    return listFiles;
  });
  const first = harness.start({ onRunCreated: (run) => (runId = run.id) });
  await until(() => harness.server.requests.some(isRoot));
  expect(await harness.runtime.sendGuidance(runId, { text: 'the duke is left-handed.' })).toMatchObject({ ok: true });
  await harness.runtime.shutdown();
  release();
  expect(await first).toMatchObject({ suspended: true });
  expect((await harness.store.getRun(runId))?.guidance?.[0]?.appliedAt).toBeUndefined();

  harness.server.queue(isRoot, listFiles, { content: 'He parries.' });
  const resumed = await harness.newRuntime().resumeRun(runId, { resolveModel: harness.resolveModel });
  expect(resumed.reply).toBe('He parries.');
  const after = harness.server.requests.filter(isRoot).slice(1);
  expect(after[0]?.lastMessageText).toBe(NOTE);
  expect(after.filter((request) => request.allText.split(NOTE).length - 1 > 1)).toHaveLength(0);
  expect((await harness.journal(runId)).filter((event) => event.type === 'guidance-applied')).toHaveLength(1);
});

test('a note is refused with a reason when nothing can read it', async () => {
  harness.server.queue(isRoot, { toolCalls: [delegateCritic] }, awaitAll, { content: 'Done.' });
  harness.server.queue(isCritic, { toolCalls: [{ name: 'task_return', arguments: { summary: 'Fine.' } }] });
  const outcome = await harness.start();
  expect(await harness.runtime.sendGuidance(outcome.run.id, { text: 'late' })).toBeUndefined();

  let runId = '';
  let taskId = '';
  harness.queueLater(isRoot, async () => {
    expect(await harness.runtime.sendGuidance(runId, { taskId: 'no-such-task', text: 'x' })).toMatchObject({ ok: false, code: 'guidance-task-unknown' });
    expect(await harness.runtime.sendGuidance(runId, { text: '   ' })).toMatchObject({ ok: false, code: 'guidance-invalid' });
    expect(await harness.runtime.sendGuidance(runId, { text: 'x'.repeat(2_001) })).toMatchObject({ ok: false, code: 'guidance-invalid' });
    return { toolCalls: [delegateCritic] };
  });
  harness.server.queue(isCritic, { toolCalls: [{ name: 'task_return', arguments: { summary: 'Fine.' } }] });
  harness.queueLater(isRoot, async () => {
    const [task] = await harness.store.listTasks(runId);
    taskId = task?.id ?? '';
    return awaitAll;
  });
  harness.queueLater(isRoot, async () => {
    expect(await harness.runtime.sendGuidance(runId, { taskId, text: 'too late' })).toMatchObject({ ok: false, code: 'guidance-task-ended' });
    return { content: 'Done.' };
  });
  expect((await harness.start({ onRunCreated: (run) => (runId = run.id) })).reply).toBe('Done.');
});
