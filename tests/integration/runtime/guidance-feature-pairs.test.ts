import { afterEach, expect, test } from 'vitest';
import type { PromptSnapshot } from '../../../src/hosts/prompt-snapshot';
import type { AgentProfileInput } from '../../../src/settings/schema';
import { delegate, isChecker, isCritic, isRoot, startHarness, testProfiles, type Harness } from './runtime-harness';

// Guidance (issue 25 item 3) met with other features (docs/cadence-and-guidance.md, "Features it
// meets"): helpers Retinue starts on a cadence, a helper working after the reply, a grandchild of
// nested delegation, the prompted tool protocol and a streamed reply.

let harness: Harness;
afterEach(() => harness.close());

const chat = { conversationId: 'chat-guidance-pairs' };
const returns = (summary: string) => ({ toolCalls: [{ name: 'task_return', arguments: { summary } }] });
const awaitChecker = { toolCalls: [{ name: 'agent_await', arguments: { tasks: ['continuity-checker'] } }] };
const awaitAll = { toolCalls: [{ name: 'agent_await', arguments: {} }] };
const listFiles = { toolCalls: [{ name: 'workspace_list', arguments: {} }] };

function snapshotOf(...lines: string[]): PromptSnapshot {
  return {
    messages: [{ role: 'system', content: 'You are Mira, a storyteller.' }, ...lines.map((content, index) => ({ role: index % 2 === 0 ? ('user' as const) : ('assistant' as const), content }))],
    stream: false,
  };
}

async function withChecker(checker: Partial<AgentProfileInput>): Promise<void> {
  harness = await startHarness({ profiles: testProfiles({ checker }) });
}

/** The task of `runId` working as `workspaceKey`, once it is stored. */
async function taskIdOf(runId: string, workspaceKey: string): Promise<string | undefined> {
  return (await harness.store.listTasks(runId)).find((task) => task.workspaceKey === workspaceKey)?.id;
}

test('guidance × cadence: a note to an every-turn helper reaches its next request and changes what the writer reads', async () => {
  await withChecker({ runs: 'every turn' });
  let runId = '';
  harness.queueLater(isChecker, async () => {
    expect(await harness.runtime.sendGuidance(runId, { taskId: await taskIdOf(runId, 'continuity-checker'), text: 'the ring is gold.' })).toMatchObject({ ok: true });
    return listFiles;
  });
  harness.queueLater(isChecker, (request) => returns(request.lastMessageText === 'Note from the user: the ring is gold.' ? 'The ring must be gold.' : 'No note.'));
  harness.server.queue(isRoot, awaitChecker, (request) => ({ content: request.lastMessageText.includes('The ring must be gold.') ? 'A gold ring.' : 'No note reached.' }));
  const outcome = await harness.start({ chat, onRunCreated: (run) => (runId = run.id) });
  expect(outcome.reply).toBe('A gold ring.');
});

test('guidance × after the reply: a note reaches an after-the-reply helper working once the reply is out; the writer, done, takes none', async () => {
  await withChecker({ runs: 'after the reply' });
  let runId = '';
  const answers: unknown[] = [];
  harness.queueLater(isChecker, async () => {
    answers.push(await harness.runtime.sendGuidance(runId, { text: 'to the writer' }));
    answers.push(await harness.runtime.sendGuidance(runId, { taskId: await taskIdOf(runId, 'continuity-checker'), text: 'check the ring.' }));
    return listFiles;
  });
  harness.queueLater(isChecker, (request) => returns(request.lastMessageText === 'Note from the user: check the ring.' ? 'The ring was checked.' : 'No note.'));
  harness.server.queue(isRoot, { content: 'The duke yields.' });
  const first = await harness.start({ chat, snapshot: snapshotOf('Hello.'), onRunCreated: (run) => (runId = run.id) });
  expect(first.reply).toBe('The duke yields.');
  expect(answers[0]).toMatchObject({ ok: false });
  expect(answers[1]).toMatchObject({ ok: true });
  harness.server.queue(isRoot, { content: 'Next.' });
  await harness.start({ chat, snapshot: snapshotOf('Hello.', 'The duke yields.', 'Go on.') });
  expect(harness.server.requests.filter(isRoot).at(-1)?.systemText).toContain('The ring was checked.');
});

test('guidance × nested delegation: a note to a grandchild reaches its next request, and its changed result travels up to the reply', async () => {
  harness = await startHarness({
    profiles: testProfiles({ critic: { tools: { allow: ['agent.list', 'agent.delegate', 'agent.await'] }, delegation: { canDelegate: true, allowNestedDelegation: true, allowedAgents: ['continuity-checker'] } } }),
  });
  let runId = '';
  harness.queueLater(isChecker, async () => {
    expect(await harness.runtime.sendGuidance(runId, { taskId: await taskIdOf(runId, 'continuity-checker'), text: 'the ring is gold.' })).toMatchObject({ ok: true });
    return listFiles;
  });
  harness.queueLater(isChecker, (request) => returns(request.lastMessageText === 'Note from the user: the ring is gold.' ? 'The ring must be gold.' : 'No note.'));
  harness.server.queue(isCritic, { toolCalls: [delegate('continuity-checker', 'Check')] }, awaitAll, (request) => returns(`Critic read: ${request.lastMessageText.includes('The ring must be gold.') ? 'gold' : 'nothing'}`));
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, awaitAll, (request) => ({ content: request.lastMessageText.includes('Critic read: gold') ? 'A gold ring.' : 'No note reached.' }));
  const outcome = await harness.start({ chat, onRunCreated: (run) => (runId = run.id) });
  expect(outcome.reply).toBe('A gold ring.');
  // Only the grandchild's history holds the note.
  expect(harness.server.requests.filter((request) => !isChecker(request)).some((request) => request.allText.includes('Note from the user'))).toBe(false);
});

test('guidance × prompted protocol: a note to the writer on an endpoint that refuses tools is in its next request, after the text call’s result', async () => {
  harness = await startHarness();
  harness.server.modes.refuseTools = true;
  harness.server.modes.textCalls = 'hermes';
  let runId = '';
  harness.queueLater(isRoot, async () => {
    expect(await harness.runtime.sendGuidance(runId, { text: 'the duke is left-handed.' })).toMatchObject({ ok: true });
    return listFiles;
  });
  harness.queueLater(isRoot, (request) => ({ content: request.lastMessageText.endsWith('Note from the user: the duke is left-handed.') ? 'He parries left-handed.' : 'No note.' }));
  const outcome = await harness.start({ chat, onRunCreated: (run) => (runId = run.id) });
  expect(outcome.reply).toBe('He parries left-handed.');
  const answered = harness.server.requests.filter((request) => request.outcome === 'answered');
  expect(answered.every((request) => request.body.tools === undefined)).toBe(true);
});

test('guidance × streaming: a note to the writer of a streamed turn changes its next request, and the page’s stream never shows it', async () => {
  harness = await startHarness();
  let runId = '';
  const streamed: string[] = [];
  harness.queueLater(isRoot, async () => {
    expect(await harness.runtime.sendGuidance(runId, { text: 'the duke is left-handed.' })).toMatchObject({ ok: true });
    return listFiles;
  });
  harness.queueLater(isRoot, (request) => ({ content: request.lastMessageText === 'Note from the user: the duke is left-handed.' ? 'He parries left-handed.' : 'No note.', slowly: { pieces: 4, delayMs: 5 } }));
  const outcome = await harness.start({
    chat,
    snapshot: { ...snapshotOf('He attacks.'), stream: true },
    onRunCreated: (run) => (runId = run.id),
    onReplyStream: (event) => streamed.push(event.kind === 'reply-delta' ? event.text : `[${event.kind}]`),
  });
  expect(outcome.replyStreamed).toBe(true);
  expect(streamed.join('')).toBe('He parries left-handed.');
});
