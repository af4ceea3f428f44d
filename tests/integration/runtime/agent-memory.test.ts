import { afterEach, beforeEach, expect, test } from 'vitest';
import type { PromptSnapshot } from '../../../src/hosts/prompt-snapshot';
import { MAX_MEMORY_CHARS } from '../../../src/records/memory-version';
import { delegate, isCritic, isRoot, MARKER, requestsOf, startHarness, type Harness } from './runtime-harness';

// Agent memory (issue 25 item 1) through the real runtime and the scripted server: each agent's
// memory/ persists across turns of a conversation, versioned by the reply each turn continues.

let harness: Harness;
beforeEach(async () => (harness = await startHarness()));
afterEach(() => harness.close());

const chat = { conversationId: 'chat-1' };
const system = { role: 'system' as const, content: 'You are Mira, a storyteller.' };

/** The chat as the page sends it: user lines, and the replies on screen between them. */
function snapshotOf(exchanges: readonly (readonly [string, string?])[]): PromptSnapshot {
  const messages: PromptSnapshot['messages'] = [system];
  for (const [user, reply] of exchanges) {
    messages.push({ role: 'user', content: user });
    if (reply !== undefined) messages.push({ role: 'assistant', content: reply });
  }
  return { messages, stream: false };
}

const readState = { name: 'workspace_read', arguments: { path: 'memory/state.md' } };
const writeState = (content: string) => ({ name: 'workspace_write', arguments: { path: 'memory/state.md', content } });

/** One root turn: read memory/state.md, write `next` there, reply `reply`; gives back what the read saw. */
async function rootTurn(snapshot: PromptSnapshot, next: string, reply: string, conversation = chat): Promise<string> {
  const from = harness.server.requests.length;
  harness.server.queue(isRoot, { toolCalls: [readState] }, { toolCalls: [writeState(next)] }, { content: reply });
  const outcome = await harness.start({ chat: conversation, snapshot });
  expect(outcome.run.status).toBe('completed');
  return harness.server.requests.slice(from).filter(isRoot)[1]?.lastMessageText ?? '';
}

test('the root reads next turn what it wrote in memory/, and a new chat starts empty', async () => {
  expect(await rootTurn(snapshotOf([['Hello.']]), 'Knight: in the hall.', 'Reply A.')).toContain('There is no file "memory/state.md"');
  expect(await rootTurn(snapshotOf([['Hello.', 'Reply A.'], ['Go on.']]), 'Knight: at the gate.', 'Reply B.')).toBe('Knight: in the hall.');
  expect(await rootTurn(snapshotOf([['Hello.', 'Reply A.'], ['Go on.', 'Reply B.'], ['And?']]), 'Knight: outside.', 'Reply C.')).toBe('Knight: at the gate.');
  expect(await rootTurn(snapshotOf([['Hello.']]), 'Other chat.', 'Reply X.', { conversationId: 'chat-2' })).toContain('There is no file');
});

test('a swipe starts from the memory before the message it answers, and each swipe line keeps its own memory', async () => {
  await rootTurn(snapshotOf([['Hello.']]), 'Start.', 'Reply A.');
  const first = snapshotOf([['Hello.', 'Reply A.'], ['Go on.']]);
  expect(await rootTurn(first, 'After swipe one.', 'Swipe one.')).toBe('Start.');
  // The swipe answers the same message: it reads the memory of "Reply A.", never the first swipe's.
  expect(await rootTurn(first, 'After swipe two.', 'Swipe two.')).toBe('Start.');
  const afterSwipe = (swipe: string) => snapshotOf([['Hello.', 'Reply A.'], ['Go on.', swipe], ['Next.']]);
  expect(await rootTurn(afterSwipe('Swipe one.'), 'x', 'Reply on one.')).toBe('After swipe one.');
  expect(await rootTurn(afterSwipe('Swipe two.'), 'y', 'Reply on two.')).toBe('After swipe two.');
  // Pages trim what they keep of a reply: a reply shown with a trailing newline is the same line.
  expect(await rootTurn(afterSwipe('Swipe one.\n'), 'z', 'Again on one.')).toBe('After swipe one.');
});

test('an edit of an earlier message starts from the memory as it stood before that message', async () => {
  await rootTurn(snapshotOf([['Hello.']]), 'One.', 'Reply A.');
  await rootTurn(snapshotOf([['Hello.', 'Reply A.'], ['Go on.']]), 'Two.', 'Reply B.');
  expect(await rootTurn(snapshotOf([['Hello.', 'Reply A.'], ['Go on (edited).', 'Reply B.'], ['And?']]), 'Three.', 'Reply C.')).toBe('One.');
  expect(await rootTurn(snapshotOf([['Hello (edited).', 'Reply A.'], ['Go on.']]), 'Four.', 'Reply D.')).toContain('There is no file');
});

test('a helper keeps its own memory/ across turns; the root does not see it in its own memory/', async () => {
  const turn = async (snapshot: PromptSnapshot, note: string) => {
    const from = harness.server.requests.length;
    harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { toolCalls: [{ name: 'workspace_list', arguments: { path: 'memory/' } }] }, { content: `Reply after ${note}.` });
    harness.server.queue(isCritic, { toolCalls: [{ name: 'workspace_read', arguments: { path: 'memory/notes.md' } }] }, { toolCalls: [{ name: 'workspace_write', arguments: { path: 'memory/notes.md', content: note } }] }, { toolCalls: [{ name: 'task_return', arguments: { summary: 'Done.' } }] });
    const outcome = await harness.start({ chat, snapshot });
    expect(outcome.run.status).toBe('completed');
    const critic = harness.server.requests.slice(from).filter(isCritic);
    const rootList = harness.server.requests.slice(from).filter(isRoot)[3]?.lastMessageText;
    return { briefing: critic[0]?.lastMessageText ?? '', read: critic[1]?.lastMessageText ?? '', rootList, reply: outcome.reply };
  };
  const first = await turn(snapshotOf([['Hello.']]), 'Critic note one.');
  expect(first.briefing).toContain('`memory/` — your memory for this conversation');
  expect(first.read).toContain('There is no file "memory/notes.md"');
  expect(first.rootList).toContain('Nothing in `memory/` yet.');
  expect(first.rootList).toContain('Files in memory/ are kept for your next turns in this conversation');
  const second = await turn(snapshotOf([['Hello.', first.reply], ['Go on.']]), 'Critic note two.');
  expect(second.briefing).toContain('`memory/notes.md`');
  expect(second.read).toBe('Critic note one.');
  expect(requestsOf(harness.server, MARKER.critic).length).toBeGreaterThan(0);
});

test('a write that would pass the memory cap is refused with what to do, and nothing is written', async () => {
  const from = harness.server.requests.length;
  harness.server.queue(
    isRoot,
    { toolCalls: [writeState('x'.repeat(MAX_MEMORY_CHARS - 10))] },
    { toolCalls: [{ name: 'workspace_write', arguments: { path: 'memory/more.md', content: 'y'.repeat(20) } }] },
    { content: 'Reply.' },
  );
  const outcome = await harness.start({ chat, snapshot: snapshotOf([['Hello.']]) });
  const refusal = harness.server.requests.slice(from).filter(isRoot)[2]?.lastMessageText ?? '';
  expect(refusal).toContain('"memory/more.md" was not written');
  expect(refusal).toContain(`at most ${MAX_MEMORY_CHARS}`);
  expect(refusal).not.toContain(outcome.run.id);
  expect(await harness.store.readFile(outcome.run.id, 'memory/root/more.md')).toBeUndefined();
});

test('a run that fails leaves no memory: the next turn starts from what stood before it', async () => {
  await rootTurn(snapshotOf([['Hello.']]), 'Kept.', 'Reply A.');
  const failing = snapshotOf([['Hello.', 'Reply A.'], ['Go on.']]);
  harness.server.queue(isRoot, { toolCalls: [writeState('Lost.')] }, { fault: 'status', status: 401, message: 'bad key' });
  const failed = await harness.start({ chat, snapshot: failing });
  expect(failed.run.status).toBe('failed');
  expect(await harness.store.listMemoryVersionsOfRun(failed.run.id)).toEqual([]);
  // The page showed its own reply: the next turn continues from the memory of "Reply A.".
  expect(await rootTurn(snapshotOf([['Hello.', 'Reply A.'], ['Go on.', 'The page’s own reply.'], ['And?']]), 'x', 'Reply C.')).toBe('Kept.');
});

test('deleting a chat’s runs clears its memory', async () => {
  const first = snapshotOf([['Hello.']]);
  await rootTurn(first, 'Kept.', 'Reply A.');
  const runs = await harness.store.listRuns();
  expect(await harness.store.listMemoryLineKeys(chat.conversationId)).toHaveProperty('size', 1);
  for (const run of runs) await harness.store.deleteRun(run.id);
  expect(await harness.store.listMemoryLineKeys(chat.conversationId)).toHaveProperty('size', 0);
  expect(await rootTurn(snapshotOf([['Hello.', 'Reply A.'], ['Go on.']]), 'x', 'Reply B.')).toContain('There is no file');
});

test('with a reply deadline, the memory stands at the early reply, and a helper’s later writes join it at the run’s end', async () => {
  const root = [{ toolCalls: [writeState('Root at the reply.')] }, { toolCalls: [delegate('scene-critic', 'Critique')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'Reply A.' }];
  harness.server.queue(isRoot, ...root);
  let replied: () => void = () => undefined;
  const earlyReply = new Promise<void>((resolve) => (replied = resolve));
  let atReply: string | undefined;
  const criticWrite = { name: 'workspace_write', arguments: { path: 'memory/notes.md', content: 'Critic, after the reply.' } };
  harness.queueLater(isCritic, async () => (await earlyReply, { toolCalls: [criticWrite] }), { toolCalls: [{ name: 'task_return', arguments: { summary: 'Done.' } }] });
  let runId = '';
  const outcome = await harness.start({
    chat,
    snapshot: snapshotOf([['Hello.']]),
    replyDeadlineMs: 1_500,
    onRunCreated: (run) => (runId = run.id),
    onEarlyReply: () => {
      void harness.store.listMemoryVersionsOfRun(runId).then((versions) => {
        atReply = JSON.stringify(versions[0]?.agents);
        replied();
      });
    },
  });
  expect(outcome.run.repliedAt).toBeTypeOf('number');
  expect(atReply).toBe(JSON.stringify({ root: [{ path: 'state.md', content: 'Root at the reply.' }] }));
  const [version] = await harness.store.listMemoryVersionsOfRun(outcome.run.id);
  expect(version?.agents['scene-critic']).toEqual([{ path: 'notes.md', content: 'Critic, after the reply.' }]);
  expect(version?.agents.root).toEqual([{ path: 'state.md', content: 'Root at the reply.' }]);
});

test('a turn of a chat that uses no memory stores no memory version', async () => {
  harness.server.queue(isRoot, { content: 'Reply A.' });
  const outcome = await harness.start({ chat, snapshot: snapshotOf([['Hello.']]) });
  expect(outcome.run.status).toBe('completed');
  expect(await harness.store.listMemoryVersionsOfRun(outcome.run.id)).toEqual([]);
  expect(await harness.store.listMemoryLineKeys(chat.conversationId)).toHaveProperty('size', 0);
});
