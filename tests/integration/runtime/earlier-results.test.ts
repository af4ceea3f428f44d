import { afterEach, beforeEach, expect, test } from 'vitest';
import type { PromptSnapshot } from '../../../src/hosts/prompt-snapshot';
import { delegate, isCritic, isRoot, requestsOf, MARKER, snapshot, startHarness, type Harness } from './runtime-harness';

let harness: Harness;
beforeEach(async () => {
  harness = await startHarness();
});
afterEach(async () => {
  await harness.close();
});

const taskReturn = (summary: string) => ({ toolCalls: [{ name: 'task_return', arguments: { summary } }] });
const chat = { conversationId: 'chat-duel' };
/** The next turn of the test conversation: the reply given, then a new user message. */
const nextTurn = (reply: string, user: string): PromptSnapshot => ({
  ...snapshot,
  messages: [...snapshot.messages, { role: 'assistant', content: reply }, { role: 'user', content: user }],
});
const firstRootSystemText = (): string => harness.server.requests.filter(isRoot).at(-1)?.systemText ?? '';

test("a helper that finishes after the deadline's reply reaches the next turn of the conversation once", async () => {
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'The duke yields.' });
  let release: () => void = () => undefined;
  const replied = new Promise<void>((resolve) => (release = resolve));
  harness.queueLater(isCritic, async () => (await replied, taskReturn('The duke was wounded in chapter one.')));
  const first = await harness.start({ chat, replyDeadlineMs: 1_500, onEarlyReply: () => release() });
  expect(first.run.repliedAt).toBeTypeOf('number');

  harness.server.queue(isRoot, { toolCalls: [{ name: 'agent_await', arguments: { tasks: ['earlier-scene-critic'] } }] }, { content: 'She remembers the wound.' });
  const second = await harness.start({ chat, snapshot: nextTurn('The duke yields.', 'She looks at his arm.') });

  const secondRootRequests = harness.server.requests.filter(isRoot).slice(-2);
  expect(secondRootRequests[0]?.systemText).toContain('## Since your last reply');
  expect(secondRootRequests[0]?.systemText).toContain('`earlier-scene-critic` — Critique (completed): The duke was wounded in chapter one.');
  expect(secondRootRequests[1]?.lastMessageText).toContain('### earlier-scene-critic — completed (from an earlier turn)');
  const file = await harness.store.readFile(second.run.id, 'summaries/earlier/earlier-scene-critic/result.md');
  expect(file?.content).toContain('The duke was wounded in chapter one.');

  harness.server.queue(isRoot, { content: 'On it goes.' });
  await harness.start({ chat, snapshot: nextTurn('She remembers the wound.', 'Then what?') });
  expect(firstRootSystemText()).not.toContain('Since your last reply');
  expect(firstRootSystemText()).not.toContain('The duke was wounded');
});

test('a swipe of the same message reuses the earlier attempt’s results and asks no helper again; an edited history does not', async () => {
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'First attempt.' });
  harness.server.queue(isCritic, taskReturn('Keep the rain.'));
  await harness.start({ chat });
  expect(requestsOf(harness.server, MARKER.critic)).toHaveLength(1);

  harness.server.queue(isRoot, { content: 'Second attempt.' });
  const swipe = await harness.start({ chat });
  expect(swipe.reply).toBe('Second attempt.');
  expect(firstRootSystemText()).toContain('## From your earlier attempt at this reply');
  expect(firstRootSystemText()).toContain('`earlier-scene-critic` — Critique (completed): Keep the rain.');
  expect(requestsOf(harness.server, MARKER.critic)).toHaveLength(1);

  // The newest attempt asked no helper: a third swipe still reads the first attempt's results.
  harness.server.queue(isRoot, { content: 'Third attempt.' });
  await harness.start({ chat });
  expect(firstRootSystemText()).toContain('`earlier-scene-critic` — Critique (completed): Keep the rain.');
  expect(requestsOf(harness.server, MARKER.critic)).toHaveLength(1);

  const edited: PromptSnapshot = {
    ...snapshot,
    messages: snapshot.messages.map((message, index) => (index === 1 ? { role: 'user', content: 'The knight enters the garden.' } : message)),
  };
  harness.server.queue(isRoot, { content: 'Edited attempt.' });
  await harness.start({ chat, snapshot: edited });
  expect(firstRootSystemText()).not.toContain('From your earlier attempt');
  expect(firstRootSystemText()).not.toContain('Keep the rain.');
});

test('without page ids the identity is a guess: a regenerate cannot be told from a new chat that opens alike, so the helpers run again; another chat gets nothing', async () => {
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'First.' });
  harness.server.queue(isCritic, taskReturn('Keep the rain.'));
  const first = await harness.start();
  expect(first.run.chat?.basis).toBe('guessed');
  harness.server.queue(isRoot, { content: 'Again.' });
  const again = await harness.start();
  expect(again.run.chat?.conversationId).toBe(first.run.chat?.conversationId);
  expect(again.run.chat?.historyKey).toBe(first.run.chat?.historyKey);
  expect(firstRootSystemText()).not.toContain('From your earlier attempt');
  expect(firstRootSystemText()).not.toContain('Keep the rain.');

  const otherChat: PromptSnapshot = { ...snapshot, messages: [{ role: 'user', content: 'Write me a haiku.' }] };
  harness.server.queue(isRoot, { content: 'A haiku.' });
  const other = await harness.start({ snapshot: otherChat });
  expect(other.run.chat?.conversationId).not.toBe(first.run.chat?.conversationId);
  expect(firstRootSystemText()).not.toContain('Keep the rain.');
});

test('a chat named by the page’s address reuses a regenerate’s results; the same opening at another address runs its helpers again', async () => {
  const chatA = { conversationId: 'url:#/chat/conv-1764480000123', basis: 'url' as const };
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'First.' });
  harness.server.queue(isCritic, taskReturn('Keep the rain.'));
  await harness.start({ chat: chatA });
  harness.server.queue(isRoot, { content: 'Again.' });
  await harness.start({ chat: chatA });
  expect(firstRootSystemText()).toContain('`earlier-scene-critic` — Critique (completed): Keep the rain.');

  harness.server.queue(isRoot, { content: 'Elsewhere.' });
  await harness.start({ chat: { conversationId: 'url:#/chat/conv-1764480999999', basis: 'url' } });
  expect(firstRootSystemText()).not.toContain('Keep the rain.');
});

test('a swipe of the turn that read a late result is offered it too; the turn after that is not', async () => {
  // Found by hand on a real SillyTavern 1.18: the first attempt at the next message used the late
  // result, and a swipe of that message (which replaces that attempt) was left without it.
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'The duke yields.' });
  let release: () => void = () => undefined;
  const replied = new Promise<void>((resolve) => (release = resolve));
  harness.queueLater(isCritic, async () => (await replied, taskReturn('The duke was wounded in chapter one.')));
  await harness.start({ chat, replyDeadlineMs: 1_500, onEarlyReply: () => release() });

  const second = nextTurn('The duke yields.', 'She looks at his arm.');
  harness.server.queue(isRoot, { content: 'She sees the wound.' });
  await harness.start({ chat, snapshot: second });
  expect(firstRootSystemText()).toContain('The duke was wounded in chapter one.');

  harness.server.queue(isRoot, { content: 'She sees a scar.' });
  await harness.start({ chat, snapshot: second });
  const swipe = firstRootSystemText();
  expect(swipe).toContain('## Since your last reply');
  expect(swipe).toContain('`earlier-scene-critic` — Critique (completed): The duke was wounded in chapter one.');

  harness.server.queue(isRoot, { content: 'On it goes.' });
  await harness.start({ chat, snapshot: { ...second, messages: [...second.messages, { role: 'assistant', content: 'She sees a scar.' }, { role: 'user', content: 'Then what?' }] } });
  expect(firstRootSystemText()).not.toContain('The duke was wounded');
});
