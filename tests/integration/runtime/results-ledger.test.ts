import { afterEach, beforeEach, expect, test } from 'vitest';
import type { PromptSnapshot } from '../../../src/hosts/prompt-snapshot';
import type { RunStore } from '../../../src/store/run-store';
import { delegate, isCritic, isRoot, requestsOf, MARKER, snapshot, startHarness, testProfiles, type Harness } from './runtime-harness';

// What a writer may read of the helpers' results across the turns of one conversation (issue 20).
let harness: Harness;
beforeEach(async () => {
  harness = await startHarness({ profiles: testProfiles({ critic: { review: 'ask' } }) });
});
afterEach(async () => {
  await harness.close();
});

const chat = { conversationId: 'chat-ledger' };
const criticReturns = (summary: string) => ({ toolCalls: [{ name: 'task_return', arguments: { summary } }] });
const lastRootSystemText = (): string => harness.server.requests.filter(isRoot).at(-1)?.systemText ?? '';
const reviewStarted = () => harness.nextEvent((event) => event.type === 'review-start');
const nextTurn = (reply: string, user: string): PromptSnapshot => ({
  ...snapshot,
  messages: [...snapshot.messages, { role: 'assistant', content: reply }, { role: 'user', content: user }],
});

/** A turn whose root delegates a critique, waits for it, and replies; the user decides as asked. */
async function reviewedTurn(decision: { kind: 'approve' } | { kind: 'discard' } | { kind: 'edit'; text: string }) {
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'First attempt.' });
  harness.server.queue(isCritic, criticReturns('Keep the rain.'));
  const decided = reviewStarted().then((event) => harness.runtime.reviewTask(event.runId, event.taskId as string, decision));
  const outcome = await harness.start({ chat });
  expect(await decided).toMatchObject({ ok: true });
  return outcome;
}

/** A turn whose root replies at its deadline; the critic finishes (and waits for review) after that. */
async function deadlineTurn(summary: string) {
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'The duke yields.' });
  let release: () => void = () => undefined;
  const replied = new Promise<void>((resolve) => (release = resolve));
  harness.queueLater(isCritic, async () => (await replied, criticReturns(summary)));
  const asked = reviewStarted();
  const outcome = await harness.start({ chat, replyDeadlineMs: 800, onEarlyReply: () => release() });
  return { outcome, event: await asked };
}

test('case 1: a swipe never brings back a result the user discarded', async () => {
  await reviewedTurn({ kind: 'discard' });
  harness.server.queue(isRoot, { content: 'Second attempt.' });
  await harness.start({ chat });
  expect(lastRootSystemText()).not.toContain('Keep the rain.');
  expect(lastRootSystemText()).not.toContain('earlier-scene-critic');
});

test('case 1: a swipe brings back an edited result as the user wrote it', async () => {
  await reviewedTurn({ kind: 'edit', text: 'Let the rain stop at dawn.' });
  harness.server.queue(isRoot, { toolCalls: [{ name: 'agent_await', arguments: { tasks: ['earlier-scene-critic'] } }] }, { content: 'Second attempt.' });
  const swipe = await harness.start({ chat });
  const [first, second] = harness.server.requests.filter(isRoot).slice(-2);
  expect(first?.systemText).toContain('Let the rain stop at dawn.');
  expect(first?.systemText).not.toContain('Keep the rain.');
  expect(second?.lastMessageText).toContain('Let the rain stop at dawn.');
  expect(second?.lastMessageText).toContain('edited by the user');
  expect(second?.lastMessageText).not.toContain('Keep the rain.');
  const file = await harness.store.readFile(swipe.run.id, 'summaries/earlier/earlier-scene-critic/result.md');
  expect(file?.content).toContain('Let the rain stop at dawn.');
  expect(file?.content).not.toContain('Keep the rain.');
  expect(requestsOf(harness.server, MARKER.critic)).toHaveLength(1);
});

test('case 2: a result awaiting review after the deadline reply is not read, stays decidable, and its decision reaches the next turn', async () => {
  const { outcome, event } = await deadlineTurn('The duke was wounded in chapter one.');
  expect(outcome.run.repliedAt).toBeTypeOf('number');
  // While it waits, nobody reads it: not the root's notes view, not the next turn.
  const notes = await harness.store.readFile(outcome.run.id, 'summaries/agents/scene-critic/result.md');
  expect(notes?.content ?? '').not.toContain('The duke was wounded');
  harness.server.queue(isRoot, { content: 'She waits.' });
  await harness.start({ chat, snapshot: nextTurn('The duke yields.', 'She looks at him.') });
  expect(lastRootSystemText()).not.toContain('The duke was wounded');

  // The run ended; the side panel's decision still applies, and the next turn reads the edit.
  const decided = await harness.runtime.reviewTask(event.runId, event.taskId as string, { kind: 'edit', text: 'The duke limps: an old wound.' });
  expect(decided).toMatchObject({ ok: true });
  const [task] = await harness.store.listTasks(outcome.run.id);
  expect(task?.review).toMatchObject({ state: 'edited' });
  const approvedNotes = await harness.store.readFile(outcome.run.id, 'summaries/agents/scene-critic/result.md');
  expect(approvedNotes?.content).toContain('The duke limps: an old wound.');

  harness.server.queue(isRoot, { content: 'She sees the limp.' });
  await harness.start({ chat, snapshot: nextTurn('She waits.', 'What does she see?') });
  expect(lastRootSystemText()).toContain('## Since your last reply');
  expect(lastRootSystemText()).toContain('The duke limps: an old wound.');
  expect(lastRootSystemText()).not.toContain('The duke was wounded');
});

test('case 2: an approval after the run ended hands the agent’s own result to the next turn', async () => {
  const { event } = await deadlineTurn('The duke was wounded in chapter one.');
  expect(await harness.runtime.reviewTask(event.runId, event.taskId as string, { kind: 'approve' })).toMatchObject({ ok: true });
  expect(await harness.runtime.reviewTask(event.runId, event.taskId as string, { kind: 'discard' })).toMatchObject({ ok: false, code: 'review-not-awaiting' });
  harness.server.queue(isRoot, { content: 'She sees it.' });
  await harness.start({ chat, snapshot: nextTurn('The duke yields.', 'She looks at him.') });
  expect(lastRootSystemText()).toContain('The duke was wounded in chapter one.');
});

test('case 4: late results offered to a run the page stopped are offered again to the next one', async () => {
  const { event } = await deadlineTurn('The duke was wounded in chapter one.');
  await harness.runtime.reviewTask(event.runId, event.taskId as string, { kind: 'approve' });
  const page = new AbortController();
  harness.queueLater(isRoot, async () => (page.abort(), { content: 'never sent' }));
  const stopped = await harness.start({ chat, snapshot: nextTurn('The duke yields.', 'She looks at him.'), signal: page.signal }).catch(() => undefined);
  expect(stopped?.run.status ?? 'cancelled').not.toBe('completed');
  expect(lastRootSystemText()).toContain('The duke was wounded in chapter one.');

  harness.server.queue(isRoot, { content: 'She sees it.' });
  await harness.start({ chat, snapshot: nextTurn('The duke yields.', 'She looks at him.') });
  expect(lastRootSystemText()).toContain('The duke was wounded in chapter one.');

  harness.server.queue(isRoot, { content: 'And on.' });
  await harness.start({ chat, snapshot: nextTurn('She sees it.', 'Then?') });
  expect(lastRootSystemText()).not.toContain('The duke was wounded');
});

test('case 3: a run resumed after a worker stop can still agent_await the earlier result its system text offers', async () => {
  await reviewedTurn({ kind: 'approve' });
  const awaiting = harness.nextEvent((event) => event.type === 'model-call-start');
  let unblock: () => void = () => undefined;
  const blocked = new Promise<void>((resolve) => (unblock = resolve));
  harness.queueLater(isRoot, async () => (await blocked, { content: 'lost to the stop' }));
  const stopping = harness.start({ chat });
  await awaiting;
  await harness.runtime.shutdown();
  unblock();
  const suspended = await stopping;
  expect(suspended.suspended).toBe(true);

  harness.server.queue(isRoot, { toolCalls: [{ name: 'agent_await', arguments: { tasks: ['earlier-scene-critic'] } }] }, { content: 'Resumed.' });
  const resumed = await harness.newRuntime().resumeRun(suspended.run.id, { resolveModel: harness.resolveModel });
  expect(resumed.reply).toBe('Resumed.');
  const last = harness.server.requests.filter(isRoot).at(-1);
  expect(last?.lastMessageText).toContain('Keep the rain.');
  expect(last?.lastMessageText).not.toContain('You have no task named');
});

test('case 7: a user approval racing the await-timeout discard is refused, or is what the parent reads', async () => {
  let runtimeRef = harness.runtime;
  let raced: Promise<unknown> | undefined;
  const racing: RunStore = new Proxy(harness.store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (property !== 'writeFileChecked' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
      return async (...[runId, except, decide]: Parameters<RunStore['writeFileChecked']>) => {
        // The moment the discard is being stored, the user clicks approve.
        const file = decide(await target.listFiles(runId, '', except));
        if (file.content.includes('· Discarded') && raced === undefined) {
          const [task] = await target.listTasks(runId);
          raced = runtimeRef.reviewTask(runId, task?.id ?? '', { kind: 'approve' });
        }
        return target.writeFileChecked(runId, except, decide);
      };
    },
  });
  runtimeRef = harness.newRuntime(racing);
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, { toolCalls: [{ name: 'agent_await', arguments: { timeoutMs: 300 } }] }, (request) => ({ content: `Read: ${request.lastMessageText}` }));
  harness.server.queue(isCritic, criticReturns('Keep the rain.'));
  const outcome = await harness.startOn(runtimeRef);
  const answer = (await raced) as { ok: boolean } | undefined;
  const [task] = await harness.store.listTasks(outcome.run.id);
  const parentRead = outcome.reply ?? '';
  if (answer?.ok) {
    expect(task?.review?.state).toBe('approved');
    expect(parentRead).toContain('Keep the rain.');
  } else {
    expect(task?.review?.state).toBe('discarded');
    expect(parentRead).toContain('discarded');
  }
  expect(answer).toBeDefined();
});

test('case 11: a carried result names only files its new reader can open', async () => {
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'First attempt.' });
  harness.server.queue(
    isCritic,
    { toolCalls: [{ name: 'workspace_write', arguments: { path: 'summaries/notes.md', content: 'Rain notes.' } }] },
    { toolCalls: [{ name: 'task_return', arguments: { summary: 'Keep the rain.', artifacts: [{ path: 'summaries/notes.md', role: 'full notes' }] } }] },
  );
  const decided = reviewStarted().then((event) => harness.runtime.reviewTask(event.runId, event.taskId as string, { kind: 'approve' }));
  await harness.start({ chat });
  await decided;

  harness.server.queue(isRoot, { toolCalls: [{ name: 'agent_await', arguments: { tasks: ['earlier-scene-critic'] } }] }, { content: 'Second attempt.' });
  const swipe = await harness.start({ chat });
  const answer = harness.server.requests.filter(isRoot).at(-1)?.lastMessageText ?? '';
  const named = [...answer.matchAll(/`([^`]+\.md)`/g)].map((match) => match[1] as string).filter((path) => !path.endsWith('result.md'));
  expect(named.length).toBeGreaterThan(0);
  for (const path of named) expect((await harness.store.readFile(swipe.run.id, path))?.content, path).toBe('Rain notes.');
});

test('a task stored before offeredToRunIds reads its carriedToRunId as the one run it was offered to', async () => {
  const { outcome, event } = await deadlineTurn('The duke was wounded in chapter one.');
  await harness.runtime.reviewTask(event.runId, event.taskId as string, { kind: 'approve' });
  const [task] = await harness.store.listTasks(outcome.run.id);
  if (!task) throw new Error('the critique task is missing');
  // Offered (the old way) to a run the page stopped: not used, so offered again.
  const stoppedRun = { ...outcome.run, id: 'stopped-run', status: 'cancelled' as const, repliedAt: undefined, createdAt: outcome.run.createdAt + 1 };
  await harness.store.putRun(stoppedRun);
  await harness.store.putTask({ ...task, carriedToRunId: stoppedRun.id });
  harness.server.queue(isRoot, { content: 'She sees it.' });
  await harness.start({ chat, snapshot: nextTurn('The duke yields.', 'She looks at him.') });
  expect(lastRootSystemText()).toContain('The duke was wounded in chapter one.');

  // Offered (the old way) to a run that replied: used, never offered again.
  const repliedRun = { ...stoppedRun, id: 'replied-run', status: 'completed' as const, reply: 'Done.' };
  await harness.store.putRun(repliedRun);
  await harness.store.putTask({ ...task, carriedToRunId: repliedRun.id });
  harness.server.queue(isRoot, { content: 'And on.' });
  await harness.start({ chat, snapshot: nextTurn('She sees it.', 'Then?') });
  expect(lastRootSystemText()).not.toContain('The duke was wounded');
});
