import { afterEach, expect, test } from 'vitest';
import type { PromptSnapshot } from '../../../src/hosts/prompt-snapshot';
import type { AgentProfileInput } from '../../../src/settings/schema';
import { delegate, isChecker, isRoot, MARKER, requestsOf, snapshot, startHarness, testProfiles, type Harness } from './runtime-harness';

// Cadence per agent (issue 25 item 2): Retinue starts helpers on their own cadence, through the real SDK.
let harness: Harness;
afterEach(async () => {
  await harness.close();
});

const chat = { conversationId: 'chat-cadence' };
const checkerReturns = (summary: string) => ({ toolCalls: [{ name: 'task_return', arguments: { summary } }] });
const awaitChecker = { toolCalls: [{ name: 'agent_await', arguments: { tasks: ['continuity-checker'] } }] };
const rootRequests = () => harness.server.requests.filter(isRoot);
const withTurn = (before: PromptSnapshot, reply: string, user: string): PromptSnapshot => ({
  ...before,
  messages: [...before.messages, { role: 'assistant', content: reply }, { role: 'user', content: user }],
});

async function withChecker(runs: string, more: { root?: Partial<AgentProfileInput> } = {}): Promise<void> {
  harness = await startHarness({ profiles: testProfiles({ checker: { runs }, ...more }) });
}

test('an every-turn helper starts before the root’s first call, and the root reads its result by name', async () => {
  await withChecker('every turn');
  harness.server.queue(isChecker, checkerReturns('The duke wore a ring in chapter one.'));
  harness.server.queue(isRoot, awaitChecker, { content: 'She sees the ring.' });
  const outcome = await harness.start({ chat });
  expect(outcome.reply).toBe('She sees the ring.');
  const [first, second] = rootRequests();
  expect(first?.systemText).toContain('## Helpers already working on this turn');
  expect(first?.systemText).toContain('`continuity-checker` — Continuity checker (runs every turn)');
  expect(second?.lastMessageText).toContain('The duke wore a ring in chapter one.');
  const journal = await harness.journal(outcome.run.id);
  const queued = journal.findIndex((event) => event.type === 'task-queued');
  const rootFirstCall = journal.findIndex((event) => event.type === 'model-call-start' && event.invocationId === outcome.run.rootInvocationId);
  expect(queued).toBeGreaterThanOrEqual(0);
  expect(queued).toBeLessThan(rootFirstCall);
  const [task] = await harness.store.listTasks(outcome.run.id);
  expect(task).toMatchObject({ startedBy: 'cadence', cadence: 'every turn', status: 'completed', workspaceKey: 'continuity-checker' });
});

test('a swipe does not run an every-turn helper again when the ledger holds its result for that message', async () => {
  await withChecker('every turn');
  harness.server.queue(isChecker, checkerReturns('The duke wore a ring.'));
  harness.server.queue(isRoot, awaitChecker, { content: 'First attempt.' });
  await harness.start({ chat });
  harness.server.queue(isRoot, { content: 'Second attempt.' });
  const swipe = await harness.start({ chat });
  expect(requestsOf(harness.server, MARKER.checker)).toHaveLength(1);
  expect(rootRequests().at(-1)?.systemText).toContain('earlier-continuity-checker');
  expect(rootRequests().at(-1)?.systemText).not.toContain('## Helpers already working on this turn');
  expect(await harness.store.listTasks(swipe.run.id)).toHaveLength(0);
  const skip = (await harness.journal(swipe.run.id)).find((event) => event.type === 'cadence-skip');
  expect(skip?.data).toMatchObject({ agentId: 'continuity-checker', reason: 'held-by-ledger' });

  // The next message is a new turn: it runs again.
  harness.server.queue(isChecker, checkerReturns('Still the ring.'));
  harness.server.queue(isRoot, awaitChecker, { content: 'Third.' });
  await harness.start({ chat, snapshot: withTurn(snapshot, 'Second attempt.', 'She looks closer.') });
  expect(requestsOf(harness.server, MARKER.checker)).toHaveLength(2);
});

test('an every-N-turns helper runs on the first turn and then every N-th', async () => {
  await withChecker('every 2 turns');
  // The harness snapshot is turn 2 (two user messages); start from a one-message chat.
  const turnOne: PromptSnapshot = { ...snapshot, messages: snapshot.messages.slice(0, 2) };
  const turns = [turnOne, withTurn(turnOne, 'A.', 'Two.'), withTurn(withTurn(turnOne, 'A.', 'Two.'), 'B.', 'Three.')];
  const ran: boolean[] = [];
  for (const [index, turn] of turns.entries()) {
    const before = requestsOf(harness.server, MARKER.checker).length;
    harness.server.queue(isChecker, checkerReturns(`Turn ${index + 1} checked.`));
    harness.server.queue(isRoot, { content: `Reply ${index + 1}.` });
    await harness.start({ chat, snapshot: turn });
    ran.push(requestsOf(harness.server, MARKER.checker).length > before);
  }
  expect(ran).toEqual([true, false, true]);
});

test('an after-the-reply helper starts once the reply is out, never delays it, and its result reaches the next turn', async () => {
  await withChecker('after the reply');
  let replied = false;
  let checkerSawReply = false;
  harness.queueLater(isChecker, (request) => {
    checkerSawReply = replied && request.allText.includes('The duke yields.');
    return checkerReturns('The duke yielded too quickly for his character.');
  });
  harness.server.queue(isRoot, { content: 'The duke yields.' });
  const first = await harness.start({ chat, onEarlyReply: (early) => (replied = early.reply === 'The duke yields.') });
  expect(first.reply).toBe('The duke yields.');
  expect(first.run.repliedAt).toBeTypeOf('number');
  expect(checkerSawReply).toBe(true);
  expect(rootRequests()[0]?.toolNames).toContain('agent_delegate');
  const [task] = await harness.store.listTasks(first.run.id);
  expect(task).toMatchObject({ startedBy: 'cadence', cadence: 'after the reply', status: 'completed' });

  harness.server.queue(isRoot, { content: 'She doubts him.' });
  await harness.start({ chat, snapshot: withTurn(snapshot, 'The duke yields.', 'She looks at him.') });
  expect(rootRequests().at(-1)?.systemText).toContain('## Since your last reply');
  expect(rootRequests().at(-1)?.systemText).toContain('The duke yielded too quickly for his character.');
});

test('the root is not offered helpers on a cadence of their own, and delegating one is refused with a reason', async () => {
  await withChecker('on demand');
  harness.server.queue(
    isRoot,
    { toolCalls: [{ name: 'agent_list', arguments: {} }] },
    { toolCalls: [delegate('continuity-checker', 'Check')] },
    { content: 'Done alone.' },
  );
  const outcome = await harness.start({ chat });
  expect(outcome.reply).toBe('Done alone.');
  const [, afterList, afterDelegate] = rootRequests();
  expect(afterList?.lastMessageText).toContain('scene-critic');
  expect(afterList?.lastMessageText).not.toContain('continuity-checker');
  expect(afterDelegate?.lastMessageText).toContain('The agent "continuity-checker" is not yours to delegate: only the user starts it.');
  expect(requestsOf(harness.server, MARKER.checker)).toHaveLength(0);
  expect(await harness.store.listTasks(outcome.run.id)).toHaveLength(0);
});

test('the spend cap refuses an after-the-reply helper like any delegation', async () => {
  await withChecker('after the reply', { root: { budget: { maxRounds: 8, maxToolCalls: 16, maxRunTokens: 1_000 } } });
  harness.server.queue(isRoot, { content: 'The duke yields.', usage: { prompt_tokens: 1_500, completion_tokens: 10, total_tokens: 1_510 } });
  const outcome = await harness.start({ chat });
  expect(outcome.reply).toBe('The duke yields.');
  expect(requestsOf(harness.server, MARKER.checker)).toHaveLength(0);
  const skip = (await harness.journal(outcome.run.id)).find((event) => event.type === 'cadence-skip');
  expect(skip?.data).toMatchObject({ agentId: 'continuity-checker' });
  expect(String(skip?.data.reason)).toContain('limit of 1,000 tokens');
});

test('a run resumed after a worker stop keeps its every-turn helper: not started twice, not lost', async () => {
  await withChecker('every turn');
  let runId = '';
  let unblock: () => void = () => undefined;
  const blocked = new Promise<void>((resolve) => (unblock = resolve));
  harness.queueLater(isChecker, async () => (await blocked, checkerReturns('lost to the stop')));
  harness.queueLater(isRoot, async () => (await blocked, awaitChecker));
  const running = harness.start({ chat, onRunCreated: (run) => (runId = run.id) });
  await harness.nextEvent((event) => event.type === 'model-call-start' && event.taskId !== undefined);
  await harness.runtime.shutdown();
  unblock();
  expect(await running).toMatchObject({ suspended: true });

  harness.server.queue(isChecker, checkerReturns('The ring, after the restart.'));
  harness.server.queue(isRoot, awaitChecker, { content: 'She sees the ring.' });
  const resumed = await harness.newRuntime().resumeRun(runId, { resolveModel: harness.resolveModel });
  expect(resumed.reply).toBe('She sees the ring.');
  const tasks = await harness.store.listTasks(runId);
  expect(tasks).toHaveLength(1);
  expect(tasks[0]).toMatchObject({ startedBy: 'cadence', status: 'completed' });
  expect(rootRequests().at(-1)?.lastMessageText).toContain('The ring, after the restart.');
});

test('a helper allowed to hand work on is not offered a cadence agent either', async () => {
  harness = await startHarness({
    profiles: testProfiles({
      critic: { tools: { allow: ['agent.list', 'agent.delegate', 'agent.await'] }, delegation: { canDelegate: true, callable: true, allowNestedDelegation: true } },
      checker: { runs: 'after the reply' },
    }),
  });
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'Done.' });
  harness.server.queue(
    (request) => request.systemText.includes(MARKER.critic),
    { toolCalls: [delegate('continuity-checker', 'Check')] },
    { toolCalls: [{ name: 'task_return', arguments: { summary: 'Critiqued alone.' } }] },
  );
  harness.server.queue(isChecker, checkerReturns('After the reply.'));
  const outcome = await harness.start({ chat });
  expect(outcome.reply).toBe('Done.');
  const critic = requestsOf(harness.server, MARKER.critic);
  expect(critic[1]?.lastMessageText).toContain('The agent "continuity-checker" is not yours to delegate: it runs on its own once the reply is out');
  const tasks = await harness.store.listTasks(outcome.run.id);
  expect(tasks.map((task) => [task.workspaceKey, task.startedBy ?? 'agent'])).toEqual([
    ['scene-critic', 'agent'],
    ['continuity-checker', 'cadence'],
  ]);
});

test('the reply deadline ends the root’s wait for an every-turn helper, which works on and reaches the next turn', async () => {
  await withChecker('every turn');
  let release: () => void = () => undefined;
  const replied = new Promise<void>((resolve) => (release = resolve));
  harness.queueLater(isChecker, async () => (await replied, checkerReturns('The ring was silver.')));
  harness.server.queue(isRoot, awaitChecker, { content: 'She waits.' });
  const first = await harness.start({ chat, replyDeadlineMs: 800, onEarlyReply: () => release() });
  expect(first.reply).toBe('She waits.');
  expect(first.run.repliedAt).toBeTypeOf('number');
  const [task] = await harness.store.listTasks(first.run.id);
  expect(task).toMatchObject({ startedBy: 'cadence', status: 'completed' });
  expect(task?.endedAt).toBeGreaterThan(first.run.repliedAt ?? Infinity);

  harness.server.queue(isChecker, checkerReturns('Still silver.'));
  harness.server.queue(isRoot, { content: 'She sees the silver ring.' });
  await harness.start({ chat, snapshot: withTurn(snapshot, 'She waits.', 'She looks at his hand.') });
  const nextFirst = rootRequests().at(-1)?.systemText ?? '';
  expect(nextFirst).toContain('## Since your last reply');
  expect(nextFirst).toContain('The ring was silver.');
  expect(nextFirst).toContain('## Helpers already working on this turn');
});

test('a turn that falls open cancels its every-turn helper with the rest', async () => {
  await withChecker('every turn');
  harness.queueLater(isChecker, async () => (await new Promise((resolve) => setTimeout(resolve, 2_000)), checkerReturns('too late')));
  harness.server.queue(isRoot, { content: '' }, { content: '' }, { content: '' }, { content: '' });
  const outcome = await harness.start({ chat });
  expect(outcome.run.status).toBe('failed');
  expect(outcome.run.fallback?.code).toBeDefined();
  const [task] = await harness.store.listTasks(outcome.run.id);
  expect(task).toMatchObject({ startedBy: 'cadence', status: 'cancelled' });
});

test('an after-the-reply result follows the reply on screen: a swipe is not offered it, and the next turn reads only its own line’s', async () => {
  await withChecker('after the reply');
  harness.queueLater(isChecker, (request) => checkerReturns(request.allText.includes('Reply A.') ? 'About A.' : 'About B.'));
  harness.server.queue(isRoot, { content: 'Reply A.' });
  await harness.start({ chat });
  harness.queueLater(isChecker, (request) => checkerReturns(request.allText.includes('Reply A.') ? 'About A.' : 'About B.'));
  harness.server.queue(isRoot, { content: 'Reply B.' });
  await harness.start({ chat });
  expect(rootRequests().at(-1)?.systemText).not.toContain('About A.');

  harness.server.queue(isRoot, { content: 'Onwards.' });
  await harness.start({ chat, snapshot: withTurn(snapshot, 'Reply B.', 'She looks at him.') });
  const next = rootRequests().at(-1)?.systemText ?? '';
  expect(next).toContain('About B.');
  expect(next).not.toContain('About A.');
});

test('the side panel’s Run button starts an on-demand helper in the working run, once, as the writer’s task', async () => {
  await withChecker('on demand');
  let runId = '';
  const answers: unknown[] = [];
  harness.queueLater(isRoot, async () => {
    answers.push(await harness.runtime.runAgent(runId, 'continuity-checker'));
    answers.push(await harness.runtime.runAgent(runId, 'continuity-checker'));
    answers.push(await harness.runtime.runAgent(runId, 'root'));
    return awaitChecker;
  });
  harness.server.queue(isChecker, checkerReturns('Asked for by the user.'));
  harness.server.queue(isRoot, { content: 'Done.' });
  const outcome = await harness.start({ chat, onRunCreated: (run) => (runId = run.id) });
  expect(answers).toEqual([{ ok: true }, expect.objectContaining({ ok: false, code: 'run-agent-already' }), expect.objectContaining({ ok: false, code: 'run-agent-unknown' })]);
  expect(rootRequests().at(-1)?.lastMessageText).toContain('Asked for by the user.');
  const tasks = await harness.store.listTasks(outcome.run.id);
  expect(tasks).toEqual([expect.objectContaining({ startedBy: 'user', targetProfileId: 'continuity-checker', status: 'completed' })]);
  expect(await harness.runtime.runAgent(outcome.run.id, 'continuity-checker')).toBeUndefined();
});
