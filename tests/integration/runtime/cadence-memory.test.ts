import { afterEach, beforeEach, expect, test } from 'vitest';
import type { PromptSnapshot } from '../../../src/hosts/prompt-snapshot';
import { memoryOfRun, saveMemoryFile } from '../../../src/ui/side-panel/memory-edits';
import { isChecker, isRoot, MARKER, requestsOf, startHarness, testProfiles, type Harness } from './runtime-harness';

// An every-turn tracker with memory (issue 25, items 1 and 2 together): its memory/state.md is right
// for whichever swipe is on screen, also when a swipe reuses its result instead of running it again.

let harness: Harness;
beforeEach(async () => {
  harness = await startHarness({
    profiles: testProfiles({ checker: { runs: 'every turn', tools: { allow: ['workspace.list', 'workspace.read', 'workspace.write'] } } }),
  });
});
afterEach(() => harness.close());

const chat = { conversationId: 'chat-tracker' };
const system = { role: 'system' as const, content: 'You are Mira, a storyteller.' };
const awaitChecker = { toolCalls: [{ name: 'agent_await', arguments: { tasks: ['continuity-checker'] } }] };

function snapshotOf(...lines: string[]): PromptSnapshot {
  return { messages: [system, ...lines.map((content, index) => ({ role: index % 2 === 0 ? ('user' as const) : ('assistant' as const), content }))], stream: false };
}

/** The tracker reads memory/state.md, writes `next` there and returns; gives back what its read saw. */
function queueTracker(next: string): () => string {
  const from = harness.server.requests.length;
  harness.server.queue(
    isChecker,
    { toolCalls: [{ name: 'workspace_read', arguments: { path: 'memory/state.md' } }] },
    { toolCalls: [{ name: 'workspace_write', arguments: { path: 'memory/state.md', content: next } }] },
    { toolCalls: [{ name: 'task_return', arguments: { summary: `State: ${next}` } }] },
  );
  return () => harness.server.requests.slice(from).filter(isChecker)[1]?.lastMessageText ?? '';
}

test('a swipe that reuses the tracker’s result keeps its memory too, so the next turn reads it on either swipe', async () => {
  const readOnTurnOne = queueTracker('Knight: in the hall.');
  harness.server.queue(isRoot, awaitChecker, { content: 'First attempt.' });
  await harness.start({ chat, snapshot: snapshotOf('Hello.') });
  expect(readOnTurnOne()).toContain('There is no file');

  // The swipe: the ledger holds the tracker's result for this message, so it does not run again.
  harness.server.queue(isRoot, { content: 'Second attempt.' });
  await harness.start({ chat, snapshot: snapshotOf('Hello.') });
  expect(requestsOf(harness.server, MARKER.checker)).toHaveLength(3);

  // The next message, on the second swipe and then back on the first: the tracker's state follows.
  const readAfterSecond = queueTracker('Knight: at the gate.');
  harness.server.queue(isRoot, awaitChecker, { content: 'Reply on two.' });
  await harness.start({ chat, snapshot: snapshotOf('Hello.', 'Second attempt.', 'Go on.') });
  expect(readAfterSecond()).toBe('Knight: in the hall.');

  const readAfterFirst = queueTracker('Knight: outside.');
  harness.server.queue(isRoot, awaitChecker, { content: 'Reply on one.' });
  await harness.start({ chat, snapshot: snapshotOf('Hello.', 'First attempt.', 'Go on.') });
  expect(readAfterFirst()).toBe('Knight: in the hall.');
});

test('a swipe that reuses the tracker’s result takes its memory as the user left it in the side panel, not as the tracker wrote it', async () => {
  queueTracker('Knight: in the hall.');
  harness.server.queue(isRoot, awaitChecker, { content: 'First attempt.' });
  const first = await harness.start({ chat, snapshot: snapshotOf('Hello.') });
  // The user corrects the tracker's state under "Memory after this reply", as the side panel saves it.
  const version = await memoryOfRun(harness.store, first.run.id);
  if (!version) throw new Error('the first attempt recorded no memory');
  await saveMemoryFile(harness.store, version, { agentId: 'continuity-checker', path: 'state.md', content: 'Knight: in the courtyard.', now: Date.now() });

  harness.server.queue(isRoot, { content: 'Second attempt.' });
  await harness.start({ chat, snapshot: snapshotOf('Hello.') });
  expect(requestsOf(harness.server, MARKER.checker)).toHaveLength(3);

  for (const [swipe, next] of [['Second attempt.', 'Knight: at the gate.'], ['First attempt.', 'Knight: outside.']] as const) {
    const read = queueTracker(next);
    harness.server.queue(isRoot, awaitChecker, { content: `Reply on ${swipe}` });
    await harness.start({ chat, snapshot: snapshotOf('Hello.', swipe, 'Go on.') });
    expect({ swipe, read: read() }).toEqual({ swipe, read: 'Knight: in the courtyard.' });
  }
});
