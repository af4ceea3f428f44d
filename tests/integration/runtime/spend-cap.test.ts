import { afterEach, expect, test } from 'vitest';
import { delegate, isChecker, isCritic, isRoot, startHarness, testProfiles, type Harness } from './runtime-harness';

let harness: Harness;
afterEach(async () => {
  await harness.close();
});

const used = (total: number) => ({ usage: { prompt_tokens: total - 10, completion_tokens: 10, total_tokens: total } });
const toolResults = (messages: readonly { role: string; content?: unknown }[] | undefined) =>
  (messages ?? []).filter((message) => message.role === 'tool').map((message) => String(message.content));

test('at the cap no new delegation starts, the running task wraps up, a queued one is cancelled, and the root is told and replies', async () => {
  harness = await startHarness({ defaults: { maxRunTokens: 1_000, maxRunningChildren: 1 } });
  harness.server.queue(
    isRoot,
    { toolCalls: [delegate('scene-critic', 'Critique'), delegate('continuity-checker', 'Check')], ...used(300) },
    { toolCalls: [{ name: 'agent_await', arguments: {} }], ...used(100) },
    { content: 'The reply, within the limit.', ...used(100) },
  );
  harness.server.queue(
    isCritic,
    // This call takes the run past 1,000 tokens: the critic's next call is its wrap-up.
    { toolCalls: [{ name: 'workspace_list', arguments: {} }], ...used(700) },
    { toolCalls: [{ name: 'task_return', arguments: { summary: 'What I had at the limit.' } }], ...used(50) },
  );

  const actual = await harness.start();

  expect(actual.run.status).toBe('completed');
  expect(actual.reply).toBe('The reply, within the limit.');
  const criticRequests = harness.server.requests.filter(isCritic);
  expect(criticRequests).toHaveLength(2);
  expect(criticRequests[1]?.toolNames).toEqual(['task_return']);
  expect(criticRequests[1]?.allText).toContain('the user set a limit of 1,000 tokens for one turn');
  expect(harness.server.requests.filter(isChecker)).toHaveLength(0);
  const tasks = await harness.store.listTasks(actual.run.id);
  expect(tasks.find((task) => task.workspaceKey === 'scene-critic')).toMatchObject({ status: 'completed' });
  expect(tasks.find((task) => task.workspaceKey === 'continuity-checker')).toMatchObject({ status: 'cancelled', error: { code: 'task-not-started-spend-cap', message: 'Not started: the run reached its token limit.' } });
  const rootRequests = harness.server.requests.filter(isRoot);
  expect(rootRequests).toHaveLength(3);
  // The root got the critic's result, then its wrap-up: told of the cap, with no tools left.
  expect(toolResults(rootRequests[2]?.body.messages).join('\n')).toContain('What I had at the limit.');
  expect(rootRequests[2]?.toolNames).toEqual([]);
  expect(rootRequests[2]?.allText).toContain('This run has used 1,150 tokens; the user set a limit of 1,000 tokens for one turn.');
  const journal = await harness.journal(actual.run.id);
  const capEvents = journal.filter((event) => event.type === 'token-cap-reached');
  expect(capEvents).toHaveLength(1);
  expect(capEvents[0]?.data.cap).toBe(1_000);
  expect(capEvents[0]?.data.totalTokens).toBeGreaterThanOrEqual(1_000);
});

test('agent_delegate refuses at the cap with the reason, and the root writes its reply without help', async () => {
  const root = { budget: { maxRounds: 8, maxToolCalls: 16, maxRunTokens: 1_000 } };
  // The root profile's own cap wins over the default.
  harness = await startHarness({ profiles: testProfiles({ root }), defaults: { maxRunTokens: 50_000 } });
  harness.server.queue(
    isRoot,
    // This call takes the run past its cap: the delegation it makes is refused.
    { toolCalls: [delegate('scene-critic', 'Critique')], ...used(1_200) },
    { content: 'A reply without help.', ...used(100) },
  );

  const actual = await harness.start();

  expect(actual.reply).toBe('A reply without help.');
  expect(harness.server.requests.filter(isCritic)).toHaveLength(0);
  expect(await harness.store.listTasks(actual.run.id)).toEqual([]);
  const rootRequests = harness.server.requests.filter(isRoot);
  // After the first call the cap is reached and the root has no tasks: its next call is the wrap-up.
  expect(rootRequests).toHaveLength(2);
  expect(toolResults(rootRequests[1]?.body.messages)).toEqual([
    'No new task was started: this run has used 1,200 tokens, and the user set a limit of 1,000 tokens for one turn. Collect the results of the tasks you started with agent_await, then write your reply.',
  ]);
  expect(rootRequests[1]?.toolNames).toEqual([]);
  expect(rootRequests[1]?.allText).toContain('the user set a limit of 1,000 tokens for one turn. No new tasks can start.');
});

test('a run under its cap delegates as usual', async () => {
  harness = await startHarness({ defaults: { maxRunTokens: 100_000 } });
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')], ...used(300) }, { toolCalls: [{ name: 'agent_await', arguments: {} }], ...used(300) }, { content: 'Done.', ...used(300) });
  harness.server.queue(isCritic, { toolCalls: [{ name: 'task_return', arguments: { summary: 'Fine.' } }], ...used(300) });

  const actual = await harness.start();

  expect(actual.reply).toBe('Done.');
  const journal = await harness.journal(actual.run.id);
  expect(journal.some((event) => event.type === 'token-cap-reached')).toBe(false);
  expect(harness.server.requests.filter(isRoot).every((request) => !request.allText.includes('the user set a limit'))).toBe(true);
});
