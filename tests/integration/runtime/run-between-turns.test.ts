import { afterEach, expect, test } from 'vitest';
import type { PromptSnapshot } from '../../../src/hosts/prompt-snapshot';
import type { AgentProfileInput } from '../../../src/settings/schema';
import { isChecker, isRoot, MARKER, requestsOf, snapshot, startHarness, testProfiles, type Harness } from './runtime-harness';

// The side panel's Run button between turns (issue 25): an on-demand helper runs on the ended turn,
// through the real SDK, and its result reaches the next turn through the ledger.
let harness: Harness;
afterEach(async () => {
  await harness.close();
});

const chat = { conversationId: 'chat-between' };
const checkerReturns = (summary: string) => ({ toolCalls: [{ name: 'task_return', arguments: { summary } }] });
const rootRequests = () => harness.server.requests.filter(isRoot);
const withTurn = (before: PromptSnapshot, reply: string, user: string): PromptSnapshot => ({
  ...before,
  messages: [...before.messages, { role: 'assistant', content: reply }, { role: 'user', content: user }],
});

async function onDemandChecker(root: Partial<AgentProfileInput> = {}): Promise<void> {
  harness = await startHarness({ profiles: testProfiles({ checker: { runs: 'on demand' }, root }) });
}

async function runBetween(runId: string) {
  const started = await harness.runtime.runAgentBetweenTurns(runId, { agentId: 'continuity-checker', resolveModel: harness.resolveModel });
  return { started, outcome: started.ok ? await started.done : undefined };
}

test('Run between turns: the helper is briefed with the reply, is the writer’s task, and its result reaches the next turn’s first request once', async () => {
  await onDemandChecker();
  harness.server.queue(isRoot, { content: 'The duke yields.' });
  const first = await harness.start({ chat });
  expect(first.run.status).toBe('completed');

  harness.server.queue(isChecker, checkerReturns('The duke yielded too quickly for his character.'));
  const { started, outcome } = await runBetween(first.run.id);
  expect(started.ok).toBe(true);
  expect(outcome?.run).toMatchObject({ status: 'completed', reply: 'The duke yields.' });
  expect(outcome?.run.reopenedAt).toBeTypeOf('number');
  const [checkerRequest] = requestsOf(harness.server, MARKER.checker);
  expect(checkerRequest?.allText).toContain('The duke yields.');
  const [task] = await harness.store.listTasks(first.run.id);
  expect(task).toMatchObject({ startedBy: 'user', targetProfileId: 'continuity-checker', status: 'completed', parentInvocationId: first.run.rootInvocationId });
  const journal = await harness.journal(first.run.id);
  expect(journal.filter((event) => event.type === 'run-end')).toHaveLength(2);
  expect(journal.some((event) => event.type === 'run-reopen')).toBe(true);

  const rootCallsBefore = rootRequests().length;
  harness.server.queue(isRoot, { content: 'She doubts him.' });
  const next = withTurn(snapshot, 'The duke yields.', 'She looks at him.');
  await harness.start({ chat, snapshot: next });
  const [nextFirst] = rootRequests().slice(rootCallsBefore);
  expect(nextFirst?.systemText).toContain('## Since your last reply');
  expect(nextFirst?.systemText).toContain('The duke yielded too quickly for his character.');

  // Once: the turn after that is not offered it again.
  harness.server.queue(isRoot, { content: 'Onwards.' });
  await harness.start({ chat, snapshot: withTurn(next, 'She doubts him.', 'He bows.') });
  expect(rootRequests().at(-1)?.systemText).not.toContain('The duke yielded too quickly');
});

test('a result run between turns follows its reply: a swipe of that reply is not offered it, nor a turn after a sibling swipe', async () => {
  await onDemandChecker();
  harness.server.queue(isRoot, { content: 'Reply A.' });
  const first = await harness.start({ chat });
  harness.server.queue(isChecker, checkerReturns('About reply A.'));
  expect((await runBetween(first.run.id)).outcome?.run.status).toBe('completed');

  harness.server.queue(isRoot, { content: 'Reply B.' });
  await harness.start({ chat });
  expect(rootRequests().at(-1)?.systemText).not.toContain('About reply A.');

  harness.server.queue(isRoot, { content: 'Onwards.' });
  await harness.start({ chat, snapshot: withTurn(snapshot, 'Reply B.', 'She looks at him.') });
  expect(rootRequests().at(-1)?.systemText).not.toContain('About reply A.');
});

test('a worker stop while the helper works suspends the taken-up run; the resumed run finishes the helper once and ends completed', async () => {
  await onDemandChecker();
  harness.server.queue(isRoot, { content: 'The duke yields.' });
  const first = await harness.start({ chat });
  let unblock: () => void = () => undefined;
  const blocked = new Promise<void>((resolve) => (unblock = resolve));
  harness.queueLater(isChecker, async () => (await blocked, checkerReturns('lost to the stop')));
  const calling = harness.nextEvent((event) => event.type === 'model-call-start' && event.taskId !== undefined);
  const started = await harness.runtime.runAgentBetweenTurns(first.run.id, { agentId: 'continuity-checker', resolveModel: harness.resolveModel });
  expect(started.ok).toBe(true);
  await calling;
  await harness.runtime.shutdown();
  unblock();
  expect(started.ok && (await started.done)).toMatchObject({ suspended: true });
  expect((await harness.store.getRun(first.run.id))?.status).toBe('running');

  harness.server.queue(isChecker, checkerReturns('The duke yielded, after the restart.'));
  const resumed = await harness.newRuntime().resumeRun(first.run.id, { resolveModel: harness.resolveModel });
  expect(resumed.run).toMatchObject({ status: 'completed', reply: 'The duke yields.' });
  const tasks = await harness.store.listTasks(first.run.id);
  expect(tasks).toEqual([expect.objectContaining({ startedBy: 'user', status: 'completed' })]);
  // The writer is not run again: its one call was the first turn's.
  expect(rootRequests()).toHaveLength(1);

  harness.server.queue(isRoot, { content: 'She doubts him.' });
  await harness.start({ chat, snapshot: withTurn(snapshot, 'The duke yields.', 'She looks at him.') });
  expect(rootRequests().at(-1)?.systemText).toContain('The duke yielded, after the restart.');
});

test('the spend cap refuses a helper between turns with the cap’s words, and the run stays as it ended', async () => {
  await onDemandChecker({ budget: { maxRounds: 8, maxToolCalls: 16, maxRunTokens: 1_000 } });
  harness.server.queue(isRoot, { content: 'The duke yields.', usage: { prompt_tokens: 1_500, completion_tokens: 10, total_tokens: 1_510 } });
  const first = await harness.start({ chat });
  const { started } = await runBetween(first.run.id);
  expect(started).toMatchObject({ ok: false, code: 'run-agent-refused' });
  expect(started.ok ? '' : started.message).toContain('limit of 1,000 tokens');
  expect(await harness.store.getRun(first.run.id)).toEqual(first.run);
  expect(await harness.store.listTasks(first.run.id)).toHaveLength(0);
  expect(requestsOf(harness.server, MARKER.checker)).toHaveLength(0);
});

test('Run between turns is refused on a turn that is not the conversation’s latest, on the writer, and while the helper still runs', async () => {
  await onDemandChecker();
  harness.server.queue(isRoot, { content: 'Reply A.' }, { content: 'Reply B.' });
  const older = await harness.start({ chat });
  const latest = await harness.start({ chat });
  expect((await runBetween(older.run.id)).started).toMatchObject({ ok: false, code: 'run-agent-not-latest' });
  const writer = await harness.runtime.runAgentBetweenTurns(latest.run.id, { agentId: 'root', resolveModel: harness.resolveModel });
  expect(writer).toMatchObject({ ok: false, code: 'run-agent-unknown' });

  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  harness.queueLater(isChecker, async () => (await held, checkerReturns('Checked.')));
  const first = await harness.runtime.runAgentBetweenTurns(latest.run.id, { agentId: 'continuity-checker', resolveModel: harness.resolveModel });
  const second = await harness.runtime.runAgentBetweenTurns(latest.run.id, { agentId: 'continuity-checker', resolveModel: harness.resolveModel });
  expect(second).toMatchObject({ ok: false, code: 'run-agent-already' });
  release();
  expect(first.ok && (await first.done)?.run.status).toBe('completed');
  expect(await harness.store.listTasks(latest.run.id)).toHaveLength(1);
});
