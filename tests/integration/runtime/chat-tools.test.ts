import { afterEach, beforeEach, expect, test } from 'vitest';
import { sillyTavernAdapter } from '../../../src/hosts/sillytavern/sillytavern-adapter';
import type { PromptSnapshot } from '../../../src/hosts/prompt-snapshot';
import { lighthouseStory, storyMessages } from '../../fixtures/chats/lighthouse-story';
import { delegate, isChecker, isRoot, startHarness, taskHistory, testProfiles, type Harness } from './runtime-harness';

let harness: Harness;
beforeEach(async () => {
  harness = await startHarness({
    profiles: testProfiles({
      root: { tools: { allow: ['agent.delegate', 'agent.await', 'chat.search'] } },
      checker: { tools: { allow: ['chat.search', 'chat.read_messages', 'workspace.write'] }, budget: { maxRounds: 6, maxToolCalls: 8 } },
    }),
  });
});
afterEach(async () => {
  await harness.close();
});

const taskReturn = (summary: string) => ({ toolCalls: [{ name: 'task_return', arguments: { summary } }] });

function snapshotOf(messages: PromptSnapshot['messages']): PromptSnapshot {
  return { messages, stream: false, temperature: 0.7 };
}

test('a child searches the chat and reads messages by number; what it looked up is journaled with its task', async () => {
  harness.server.queue(isRoot, { toolCalls: [delegate('continuity-checker', 'Check the key')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'The door stays shut.' });
  harness.server.queue(
    isChecker,
    { toolCalls: [{ name: 'chat_search', arguments: { query: 'silver key' } }] },
    { toolCalls: [{ name: 'chat_read_messages', arguments: { from: 3, to: 4 } }] },
    taskReturn('The key was found in #3 and fits the lock in #9; #11 contradicts it.'),
  );

  const actual = await harness.start({ snapshot: snapshotOf(storyMessages()) });

  expect(actual.reply).toBe('The door stays shut.');
  expect(harness.server.unmatched).toEqual([]);
  const checkerRequests = harness.server.requests.filter(isChecker);
  expect(checkerRequests[0]?.toolNames).toEqual(['workspace_write', 'chat_search', 'chat_read_messages', 'task_return']);
  const history = await taskHistory(harness.store, actual.run.id, 'continuity-checker');
  const toolResults = history.filter((message) => message.role === 'tool').map((message) => String(message.content));
  expect(toolResults[0]).toContain('2 messages hold "silver", "key", newest first:\n- #9 assistant: The door is locked. The keyhole is small, the size of the silver key in her pocket.\n- #3 assistant: Under a loose plank');
  expect(toolResults[0]).toContain('The chat has 11 messages (#1–#11).');
  expect(toolResults[1]).toBe(
    '### #3 assistant\nUnder a loose plank of the dock she finds a small silver key, cold and salt-crusted.\n\n### #4 user\nShe asks the ferryman, Tobias, about the lighthouse.\n\nThe chat has 11 messages (#1–#11).',
  );
  const task = (await harness.store.listTasks(actual.run.id))[0];
  const lookups = (await harness.journal(actual.run.id)).filter((event) => event.type === 'chat-searched' || event.type === 'chat-messages-read');
  expect(lookups.map((event) => [event.type, event.taskId, event.data])).toEqual([
    ['chat-searched', task?.id, expect.objectContaining({ query: 'silver key', found: 2, messages: [9, 3] })],
    ['chat-messages-read', task?.id, expect.objectContaining({ from: 3, to: 4, messages: [3, 4] })],
  ]);
});

test('the root may search the chat too when its profile lists chat.search, and its lookups carry no task', async () => {
  harness.server.queue(isRoot, { toolCalls: [{ name: 'chat_search', arguments: { query: 'Tobias', role: 'assistant' } }] }, { content: 'Tobias waits.' });

  const actual = await harness.start({ snapshot: snapshotOf(storyMessages()) });

  expect(actual.reply).toBe('Tobias waits.');
  expect(harness.server.requests.filter(isRoot)[1]?.lastMessageText).toContain('1 message holds "tobias", newest first:\n- #5 assistant: Tobias spits');
  const [lookup] = (await harness.journal(actual.run.id)).filter((event) => event.type === 'chat-searched');
  expect(lookup?.taskId).toBeUndefined();
  expect(lookup?.data).toMatchObject({ query: 'Tobias', role: 'assistant', found: 1, messages: [5] });
});

test('a swipe: the tools read the run’s frozen snapshot, which leaves out the message being replaced', async () => {
  // SillyTavern's swipe of the last reply (#11) sends the chat without it.
  const swipeBody = { type: 'swipe', chat_completion_source: 'custom', stream: false, messages: storyMessages().slice(0, -1) };
  const read = sillyTavernAdapter.readRequest(swipeBody);
  if (read.kind !== 'run') throw new Error('the swipe should be a run');
  harness.server.queue(isRoot, { toolCalls: [delegate('continuity-checker', 'Check the knocker')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'A new swipe.' });
  harness.server.queue(
    isChecker,
    { toolCalls: [{ name: 'chat_search', arguments: { query: 'dragon' } }] },
    { toolCalls: [{ name: 'chat_read_messages', arguments: { from: 11 } }] },
    { toolCalls: [{ name: 'chat_read_messages', arguments: { from: 9 } }] },
    taskReturn('No dragon before #11.'),
  );

  const actual = await harness.start({
    adapter: 'sillytavern',
    snapshot: read.snapshot,
    chat: { conversationId: 'Mira - 2026-12-01@09h00m00s', messageIndex: lighthouseStory.chat.length - 1, swipeId: 1 },
  });

  expect(actual.reply).toBe('A new swipe.');
  const results = (await taskHistory(harness.store, actual.run.id, 'continuity-checker')).filter((message) => message.role === 'tool').map((message) => String(message.content));
  expect(results[0]).toBe('No messages hold "dragon". The chat has 10 messages (#1–#10). Try fewer or other words.');
  expect(results[1]).toBe('There is no message #11. The chat has 10 messages (#1–#10).');
  expect(results[2]).toContain('### #10 user\nMira tries the key.');
  expect(results.join('\n')).not.toContain('knocker');
});

test('prompted protocol: a child that writes chat_read_messages as a text call gets the messages (the underscore in its name survives)', async () => {
  harness.server.modes.refuseTools = true;
  harness.server.modes.textCalls = 'hermes';
  harness.server.queue(isRoot, { toolCalls: [delegate('continuity-checker', 'Check the key')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'Checked.' });
  harness.server.queue(
    isChecker,
    { toolCalls: [{ name: 'chat_search', arguments: { query: 'Tobias' } }] },
    { toolCalls: [{ name: 'chat_read_messages', arguments: { from: 5, to: 5 } }] },
    taskReturn('Tobias speaks in #5.'),
  );

  const actual = await harness.start({ snapshot: snapshotOf(storyMessages()) });

  expect(actual.reply).toBe('Checked.');
  const results = (await taskHistory(harness.store, actual.run.id, 'continuity-checker')).map((message) => String(message.content ?? '')).join('\n');
  expect(results).toContain('- #5 assistant: Tobias spits into the water.');
  expect(results).toContain('### #5 assistant\nTobias spits into the water.');
  expect(results).not.toContain("There is no tool 'chat_read_messages'");
});
