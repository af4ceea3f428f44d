import { afterEach, expect, test } from 'vitest';
import type { PromptSnapshot } from '../../../src/hosts/prompt-snapshot';
import type { AgentProfileInput } from '../../../src/settings/schema';
import type { ReplyStreamEvent } from '../../../src/runtime/reply-stream';
import type { ScriptedRequest } from '../../support/scripted-model-server';
import { delegate, isChecker, isCritic, isRoot, startHarness, testProfiles, type Harness } from './runtime-harness';

// Agent memory (issue 25 item 1) met with other features (docs/cadence-and-guidance.md, "Features it
// meets"): a result discarded in review, a grandchild of nested delegation, a turn that falls open
// while an every-turn helper wrote, and a streamed reply.

let harness: Harness;
afterEach(() => harness.close());

const chat = { conversationId: 'chat-memory-pairs' };
const system = { role: 'system' as const, content: 'You are Mira, a storyteller.' };
const awaitAll = { toolCalls: [{ name: 'agent_await', arguments: {} }] };
const returns = (summary: string) => ({ toolCalls: [{ name: 'task_return', arguments: { summary } }] });
const readState = { toolCalls: [{ name: 'workspace_read', arguments: { path: 'memory/state.md' } }] };
const writeState = (content: string) => ({ toolCalls: [{ name: 'workspace_write', arguments: { path: 'memory/state.md', content } }] });

/** The chat as the page sends it: alternating user lines and the replies on screen, ending on a user line. */
function snapshotOf(lines: readonly string[], stream = false): PromptSnapshot {
  return { messages: [system, ...lines.map((content, index) => ({ role: index % 2 === 0 ? ('user' as const) : ('assistant' as const), content }))], stream };
}

/** What one agent's `memory/state.md` read saw on its second request from `from` on. */
function readSeen(match: (request: ScriptedRequest) => boolean, from: number): string {
  return harness.server.requests.slice(from).filter(match)[1]?.lastMessageText ?? '';
}

/** A helper that reads memory/state.md, writes `next` there and returns `summary`. */
function queueKeeper(match: (request: ScriptedRequest) => boolean, next: string, summary = `Kept: ${next}`): void {
  harness.server.queue(match, readState, writeState(next), returns(summary));
}

async function startWith(overrides: { critic?: Partial<AgentProfileInput>; checker?: Partial<AgentProfileInput> }): Promise<void> {
  harness = await startHarness({ profiles: testProfiles(overrides) });
}

test('memory × review: a helper whose result the user discards still keeps what it wrote in memory/', async () => {
  await startWith({ critic: { review: 'ask' } });
  queueKeeper(isCritic, 'Duke: angry.', 'The duel lacks stakes.');
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, awaitAll, (request) => ({ content: `Reply after: ${request.lastMessageText.slice(0, 40)}` }));
  const discarded = harness.nextEvent((event) => event.type === 'review-start').then((event) => harness.runtime.reviewTask(event.runId, event.taskId as string, { kind: 'discard' }));
  const first = await harness.start({ chat, snapshot: snapshotOf(['Hello.']) });
  expect(await discarded).toMatchObject({ ok: true });
  expect(harness.server.requests.filter(isRoot).at(-1)?.lastMessageText).toContain('discarded');
  const [task] = await harness.store.listTasks(first.run.id);
  expect(task?.review).toMatchObject({ state: 'discarded' });

  const from = harness.server.requests.length;
  queueKeeper(isCritic, 'Duke: calmer.');
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, awaitAll, { content: 'Reply two.' });
  const approved = harness.nextEvent((event) => event.type === 'review-start').then((event) => harness.runtime.reviewTask(event.runId, event.taskId as string, { kind: 'approve' }));
  await harness.start({ chat, snapshot: snapshotOf(['Hello.', first.reply, 'Go on.']) });
  await approved;
  expect(readSeen(isCritic, from)).toBe('Duke: angry.');
});

test('memory × nested delegation: a grandchild keeps its own memory/ across turns, apart from the child that asked it', async () => {
  const agentTools = ['agent.list', 'agent.delegate', 'agent.await', 'workspace.list', 'workspace.read', 'workspace.write'] as const;
  await startWith({ critic: { tools: { allow: [...agentTools] }, delegation: { canDelegate: true, allowNestedDelegation: true, allowedAgents: ['continuity-checker'] } } });
  const turn = async (lines: string[], next: string, reply: string) => {
    const from = harness.server.requests.length;
    harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, awaitAll, { content: reply });
    harness.server.queue(isCritic, { toolCalls: [delegate('continuity-checker', 'Check')] }, awaitAll, readState, returns('Critic done.'));
    queueKeeper(isChecker, next);
    const outcome = await harness.start({ chat, snapshot: snapshotOf(lines) });
    expect(outcome.run.status).toBe('completed');
    const tasks = await harness.store.listTasks(outcome.run.id);
    expect((await harness.store.getInvocation(tasks.find((task) => task.workspaceKey === 'continuity-checker')?.childInvocationId ?? ''))?.depth).toBe(2);
    const criticRead = harness.server.requests.slice(from).filter(isCritic)[3]?.lastMessageText ?? '';
    return { grandchildRead: readSeen(isChecker, from), criticRead, run: outcome.run };
  };
  const first = await turn(['Hello.'], 'Ring: silver.', 'Reply A.');
  expect(first.grandchildRead).toContain('There is no file');
  const second = await turn(['Hello.', 'Reply A.', 'Go on.'], 'Ring: lost.', 'Reply B.');
  expect(second.grandchildRead).toBe('Ring: silver.');
  // The critic that asked it has a memory/ of its own: the grandchild's file is not in it.
  expect(second.criticRead).toContain('There is no file');
  const [version] = await harness.store.listMemoryVersionsOfRun(second.run.id);
  expect(version?.agents['continuity-checker']).toEqual([{ path: 'state.md', content: 'Ring: lost.' }]);
  expect(version?.agents['scene-critic']).toBeUndefined();
});

test('memory × fail-open × cadence: an every-turn helper’s write in a turn that falls open is not kept; the next turn reads what stood before', async () => {
  await startWith({ checker: { runs: 'every turn' } });
  queueKeeper(isChecker, 'Knight: in the hall.');
  harness.server.queue(isRoot, awaitAll, { content: 'Reply A.' });
  await harness.start({ chat, snapshot: snapshotOf(['Hello.']) });

  queueKeeper(isChecker, 'Knight: lost.');
  // An empty answer, and empty again when asked to answer briefly: the turn falls open.
  harness.server.queue(isRoot, awaitAll, { content: '' }, { content: '' });
  const fellOpen = await harness.start({ chat, snapshot: snapshotOf(['Hello.', 'Reply A.', 'Go on.']) });
  expect(fellOpen.run.status).toBe('failed');
  expect(fellOpen.run.fallback?.code).toBeDefined();
  expect((await harness.store.listTasks(fellOpen.run.id))[0]).toMatchObject({ startedBy: 'cadence', status: 'completed' });
  expect(await harness.store.listMemoryVersionsOfRun(fellOpen.run.id)).toEqual([]);

  // The page showed its own reply; on from it, the helper reads the state of "Reply A.".
  const from = harness.server.requests.length;
  queueKeeper(isChecker, 'Knight: at the gate.');
  harness.server.queue(isRoot, awaitAll, { content: 'Reply C.' });
  await harness.start({ chat, snapshot: snapshotOf(['Hello.', 'Reply A.', 'Go on.', 'The page’s own reply.', 'And?']) });
  expect(readSeen(isChecker, from)).toBe('Knight: in the hall.');
});

test('memory × streaming: a streamed reply keys its memory as the page keeps it, so the next turn on it reads that memory', async () => {
  harness = await startHarness();
  const streamed: ReplyStreamEvent[] = [];
  harness.server.queue(isRoot, readState, writeState('Knight: in the hall.'), { content: 'The hall is silent, and rain drums on the roof.', slowly: { pieces: 6, delayMs: 5 } });
  const first = await harness.start({ chat, snapshot: snapshotOf(['Hello.'], true), onReplyStream: (event) => streamed.push(event) });
  expect(first.replyStreamed).toBe(true);
  const shown = streamed.flatMap((event) => (event.kind === 'reply-delta' ? [event.text] : [])).join('');
  expect(shown).toBe('The hall is silent, and rain drums on the roof.');

  const from = harness.server.requests.length;
  harness.server.queue(isRoot, readState, writeState('Knight: at the gate.'), { content: 'Reply B.' });
  // The page keeps what it streamed, with the trailing newline some pages add.
  await harness.start({ chat, snapshot: snapshotOf(['Hello.', `${shown}\n`, 'Go on.'], true), onReplyStream: () => undefined });
  expect(readSeen(isRoot, from)).toBe('Knight: in the hall.');
});

test('memory × spend cap: what the writer wrote before the cap stands with the reply it gives at the cap', async () => {
  harness = await startHarness({ defaults: { maxRunTokens: 1_000 } });
  const pastTheCap = { usage: { prompt_tokens: 1_490, completion_tokens: 10, total_tokens: 1_500 } };
  harness.server.queue(isRoot, { ...writeState('Knight: in the hall.'), ...pastTheCap }, { content: 'Reply at the cap.' });
  const capped = await harness.start({ chat, snapshot: snapshotOf(['Hello.']) });
  expect(capped.reply).toBe('Reply at the cap.');
  // The call after the cap offered no tools: nothing more could be written.
  expect(harness.server.requests.filter(isRoot)[1]?.toolNames).toEqual([]);

  const from = harness.server.requests.length;
  harness.server.queue(isRoot, readState, { content: 'Reply B.' });
  await harness.start({ chat, snapshot: snapshotOf(['Hello.', 'Reply at the cap.', 'Go on.']) });
  expect(harness.server.requests.slice(from).filter(isRoot)[1]?.lastMessageText).toBe('Knight: in the hall.');
});
