import { afterEach, expect, test } from 'vitest';
import type { PromptSnapshot } from '../../../src/hosts/prompt-snapshot';
import type { AgentProfileInput } from '../../../src/settings/schema';
import { isChecker, isRoot, MARKER, requestsOf, startHarness, testProfiles, type Harness } from './runtime-harness';

// Cadence (issue 25 item 2) met with other features (docs/cadence-and-guidance.md, "Features it
// meets"): the prompted tool protocol, an edit of an earlier message, review, a reply deadline and a
// streamed reply.

let harness: Harness;
afterEach(() => harness.close());

const chat = { conversationId: 'chat-cadence-pairs' };
const system = { role: 'system' as const, content: 'You are Mira, a storyteller.' };
const returns = (summary: string) => ({ toolCalls: [{ name: 'task_return', arguments: { summary } }] });
const awaitChecker = { toolCalls: [{ name: 'agent_await', arguments: { tasks: ['continuity-checker'] } }] };
const checkerCalls = (): number => requestsOf(harness.server, MARKER.checker).length;

/** The chat as the page sends it: alternating user lines and the replies on screen, ending on a user line. */
function snapshotOf(...lines: string[]): PromptSnapshot {
  return { messages: [system, ...lines.map((content, index) => ({ role: index % 2 === 0 ? ('user' as const) : ('assistant' as const), content }))], stream: false };
}

async function withChecker(checker: Partial<AgentProfileInput>): Promise<void> {
  harness = await startHarness({ profiles: testProfiles({ checker }) });
}

test('cadence × prompted protocol: an every-turn helper on an endpoint that refuses tools works with text calls, and the writer reads its result', async () => {
  await withChecker({ runs: 'every turn' });
  harness.server.modes.refuseTools = true;
  harness.server.modes.textCalls = 'hermes';
  harness.server.queue(isChecker, returns('The duke wore a ring in chapter one.'));
  harness.server.queue(isRoot, awaitChecker, (request) => ({ content: request.allText.includes('The duke wore a ring') ? 'She sees the ring.' : 'No result seen.' }));
  const outcome = await harness.start({ chat });
  expect(outcome.reply).toBe('She sees the ring.');
  const [task] = await harness.store.listTasks(outcome.run.id);
  expect(task).toMatchObject({ startedBy: 'cadence', cadence: 'every turn', status: 'completed' });
  const answered = harness.server.requests.filter((request) => request.outcome === 'answered');
  expect(answered.filter(isChecker).length).toBeGreaterThan(0);
  expect(answered.every((request) => request.body.tools === undefined)).toBe(true);
  const ends = (await harness.journal(outcome.run.id)).filter((event) => event.type === 'model-call-end' && event.data.ok === true);
  expect(ends.every((event) => event.data.toolProtocol === 'prompted')).toBe(true);
});

test('cadence × edit of an earlier message: an every-2-turns helper counts the turn the edit goes on from, and the edited line’s ledger holds nothing', async () => {
  await withChecker({ runs: 'every 2 turns' });
  const turn = async (lines: string[], reply: string): Promise<boolean> => {
    const before = checkerCalls();
    harness.server.queue(isChecker, returns(`Checked before ${reply}`));
    harness.server.queue(isRoot, { content: reply });
    await harness.start({ chat, snapshot: snapshotOf(...lines) });
    return checkerCalls() > before;
  };
  expect(await turn(['One.'], 'A.')).toBe(true);
  expect(await turn(['One.', 'A.', 'Two.'], 'B.')).toBe(false);
  expect(await turn(['One.', 'A.', 'Two.', 'B.', 'Three.'], 'C.')).toBe(true);
  // The second message edited and answered again: turn 2, not due.
  expect(await turn(['One.', 'A.', 'Two (edited).'], 'B2.')).toBe(false);
  // On from the edit to a third message: turn 3, due, and no result of the line before the edit stands in.
  expect(await turn(['One.', 'A.', 'Two (edited).', 'B2.', 'Three.'], 'C2.')).toBe(true);
  const lastRoot = harness.server.requests.filter(isRoot).at(-1)?.systemText ?? '';
  expect(lastRoot).not.toContain('earlier-continuity-checker');
  // The third message edited in place (a regenerate of an edited message): the same turn, but a new history: it runs again.
  expect(await turn(['One.', 'A.', 'Two (edited).', 'B2.', 'Three (edited).'], 'C3.')).toBe(true);
});

test('cadence × review: a swipe runs an every-turn helper again when the user discarded its result, and reuses it once approved', async () => {
  await withChecker({ runs: 'every turn', review: 'ask' });
  const attempt = async (decision: 'discard' | 'approve', reply: string) => {
    harness.server.queue(isChecker, returns(`Checked for ${reply}`));
    harness.server.queue(isRoot, awaitChecker, { content: reply });
    const decided = harness.nextEvent((event) => event.type === 'review-start').then((event) => harness.runtime.reviewTask(event.runId, event.taskId as string, { kind: decision }));
    await harness.start({ chat, snapshot: snapshotOf('Hello.') });
    expect(await decided).toMatchObject({ ok: true });
  };
  await attempt('discard', 'First attempt.');
  expect(checkerCalls()).toBe(1);
  // The swipe: the ledger's result was discarded, so it is no result to reuse: the helper runs again.
  await attempt('approve', 'Second attempt.');
  expect(checkerCalls()).toBe(2);
  expect(harness.server.requests.filter(isRoot).at(-2)?.systemText).toContain('## Helpers already working on this turn');
  // The next swipe: the approved result stands for this message; it is not run a third time.
  harness.server.queue(isRoot, { content: 'Third attempt.' });
  const third = await harness.start({ chat, snapshot: snapshotOf('Hello.') });
  expect(checkerCalls()).toBe(2);
  expect(harness.server.requests.filter(isRoot).at(-1)?.systemText).toContain('earlier-continuity-checker');
  expect((await harness.journal(third.run.id)).find((event) => event.type === 'cadence-skip')?.data).toMatchObject({ reason: 'held-by-ledger' });
});

test('cadence × reply deadline: an after-the-reply helper that outlasts the deadline is not cut short by it, and reaches the next turn', async () => {
  await withChecker({ runs: 'after the reply' });
  let replied = false;
  harness.queueLater(isChecker, async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    return returns(replied ? 'The duke yielded too quickly.' : 'Started before the reply.');
  });
  harness.server.queue(isRoot, { content: 'The duke yields.' });
  const first = await harness.start({ chat, snapshot: snapshotOf('Hello.'), replyDeadlineMs: 600, onEarlyReply: (early) => (replied = early.reply === 'The duke yields.') });
  expect(first.reply).toBe('The duke yields.');
  expect(first.run.status).toBe('completed');
  const [task] = await harness.store.listTasks(first.run.id);
  expect(task).toMatchObject({ startedBy: 'cadence', cadence: 'after the reply', status: 'completed' });
  expect(task?.endedAt).toBeGreaterThan((first.run.repliedAt ?? Infinity) + 600);

  harness.server.queue(isRoot, { content: 'She doubts him.' });
  await harness.start({ chat, snapshot: snapshotOf('Hello.', 'The duke yields.', 'She looks at him.') });
  const next = harness.server.requests.filter(isRoot).at(-1)?.systemText ?? '';
  expect(next).toContain('## Since your last reply');
  expect(next).toContain('The duke yielded too quickly.');
});

test('cadence × streaming: a streamed reply reaches the page whole before an after-the-reply helper starts, and the helper’s turns never stream', async () => {
  await withChecker({ runs: 'after the reply' });
  const events: string[] = [];
  harness.queueLater(isChecker, () => (events.push('helper called'), { content: 'A helper never streams to the page.', toolCalls: [{ name: 'task_return', arguments: { summary: 'Checked after the reply.' } }] }));
  harness.server.queue(isRoot, { content: 'The hall is silent, and rain drums on the roof.', slowly: { pieces: 8, delayMs: 10 } });
  const outcome = await harness.start({
    chat,
    snapshot: { ...snapshotOf('Hello.'), stream: true },
    onReplyStream: (event) => events.push(event.kind === 'reply-delta' ? event.text : event.kind),
    onEarlyReply: () => events.push('reply out'),
  });
  expect(outcome.replyStreamed).toBe(true);
  const out = events.indexOf('reply out');
  expect(events.slice(0, out).join('')).toBe('The hall is silent, and rain drums on the roof.');
  expect(events.indexOf('helper called')).toBeGreaterThan(out);
  expect(events.join('')).not.toContain('A helper never streams');
  expect((await harness.store.listTasks(outcome.run.id))[0]).toMatchObject({ cadence: 'after the reply', status: 'completed' });
});
