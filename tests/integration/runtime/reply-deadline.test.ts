import { afterEach, beforeEach, expect, test } from 'vitest';
import type { EarlyReply } from '../../../src/runtime/agent-runtime';
import { delegate, isCritic, isRoot, startHarness, type Harness } from './runtime-harness';

let harness: Harness;
beforeEach(async () => {
  harness = await startHarness();
});
afterEach(async () => {
  await harness.close();
});

/** Long enough that the root's first two calls come before it, short enough to keep the test quick. */
const REPLY_DEADLINE_MS = 1_500;
const taskReturn = (summary: string) => ({ toolCalls: [{ name: 'task_return', arguments: { summary } }] });
const rootResults = (): string[] => harness.server.requests.filter(isRoot).map((request) => request.lastMessageText);

test('at the deadline the root is told to reply, the reply goes out, and the slow helper finishes after it', async () => {
  harness.server.queue(
    isRoot,
    { toolCalls: [delegate('scene-critic', 'Critique')] },
    { toolCalls: [{ name: 'agent_await', arguments: {} }] },
    { content: 'The duke yields.' },
  );
  let replied: (reply: EarlyReply) => void = () => undefined;
  const earlyReply = new Promise<EarlyReply>((resolve) => (replied = resolve));
  // The critic answers only once the reply has gone to the page.
  harness.queueLater(isCritic, async () => (await earlyReply, taskReturn('The duke was wounded earlier.')));
  let taskStatusAtReply: string | undefined;
  let runId = '';

  const actual = await harness.start({
    replyDeadlineMs: REPLY_DEADLINE_MS,
    onEarlyReply: (reply) => {
      void harness.store.listTasks(runId).then((tasks) => (taskStatusAtReply = tasks[0]?.status));
      replied(reply);
    },
    onRunCreated: (run) => (runId = run.id),
  });

  const early = await earlyReply;
  expect(early).toEqual({ reply: 'The duke yields.', replyStreamed: false, stillWorking: 1 });
  expect(taskStatusAtReply).toBe('running');
  // Told once, in whichever tool result came first after the deadline (the await's, on a quick start).
  expect(rootResults().filter((text) => text.includes('Your reply is due now'))).toHaveLength(1);
  expect(rootResults().some((text) => text.includes('`scene-critic` — running'))).toBe(true);
  expect(actual.run.status).toBe('completed');
  expect(actual.reply).toBe('The duke yields.');
  expect(actual.run.repliedAt).toBeTypeOf('number');
  const [task] = await harness.store.listTasks(actual.run.id);
  expect(task?.status).toBe('completed');
  const journal = await harness.journal(actual.run.id);
  const types = journal.map((event) => event.type);
  expect(types.indexOf('run-reply')).toBeLessThan(types.lastIndexOf('task-end'));
});

test('a root that keeps calling tools after it was told gets its last call without tools', async () => {
  harness.server.queue(
    isRoot,
    { toolCalls: [delegate('scene-critic', 'Critique')] },
    { toolCalls: [{ name: 'agent_await', arguments: {} }] },
    { toolCalls: [{ name: 'agent_list', arguments: {} }] },
    { content: 'Written at last.' },
  );
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  harness.queueLater(isCritic, async () => (await released, taskReturn('Late.')));

  const actual = await harness.start({ replyDeadlineMs: REPLY_DEADLINE_MS, onEarlyReply: () => release() });

  expect(actual.reply).toBe('Written at last.');
  const last = harness.server.requests.filter(isRoot).at(-1);
  expect(last?.toolNames ?? []).toEqual([]);
});

test('without a deadline the root waits for its helper as before', async () => {
  harness.server.queue(
    isRoot,
    { toolCalls: [delegate('scene-critic', 'Critique')] },
    { toolCalls: [{ name: 'agent_await', arguments: {} }] },
    { content: 'Done with the critique.' },
  );
  harness.queueLater(isCritic, async () => (await new Promise((resolve) => setTimeout(resolve, 400)), taskReturn('Critic result.')));
  let early = false;

  const actual = await harness.start({ onEarlyReply: () => (early = true) });

  expect(early).toBe(false);
  expect(rootResults()[2]).toContain('Critic result.');
  expect(actual.run.repliedAt).toBeUndefined();
});
