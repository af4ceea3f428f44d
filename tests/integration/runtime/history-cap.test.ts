import { afterEach, expect, test } from 'vitest';
import { delegate, isChecker, isCritic, isRoot, snapshot, startHarness, type Harness } from './runtime-harness';

let harness: Harness;
afterEach(async () => {
  await harness.close();
});

test('past the history cap no new task starts, the running one wraps up, a queued one is cancelled, and the root is told and replies', async () => {
  harness = await startHarness({ defaults: { maxRunningChildren: 1 } });
  const runtime = harness.newRuntime(undefined, { historyCapBytes: 20_000 });
  harness.server.queue(
    isRoot,
    { toolCalls: [delegate('scene-critic', 'Critique'), delegate('continuity-checker', 'Check')] },
    { toolCalls: [{ name: 'agent_await', arguments: {} }] },
    { content: 'The reply, within the size.' },
  );
  harness.server.queue(
    isCritic,
    // This answer takes the run's history past 20,000 bytes: the critic's next call is its wrap-up.
    { content: `Notes: ${'x'.repeat(25_000)}`, toolCalls: [{ name: 'workspace_list', arguments: {} }] },
    { toolCalls: [{ name: 'task_return', arguments: { summary: 'What I had at the size limit.' } }] },
  );

  const actual = await harness.startOn(runtime);

  expect(actual.run.status).toBe('completed');
  expect(actual.reply).toBe('The reply, within the size.');
  const criticRequests = harness.server.requests.filter(isCritic);
  expect(criticRequests).toHaveLength(2);
  expect(criticRequests[1]?.toolNames).toEqual(['task_return']);
  expect(criticRequests[1]?.allText).toContain('as much history as Retinue keeps for one turn');
  expect(harness.server.requests.filter(isChecker)).toHaveLength(0);
  const tasks = await harness.store.listTasks(actual.run.id);
  expect(tasks.find((task) => task.workspaceKey === 'continuity-checker')).toMatchObject({ status: 'cancelled', error: { code: 'task-not-started-history-cap', message: 'Not started: the run reached the size its history may have.' } });
  const rootRequests = harness.server.requests.filter(isRoot);
  expect(rootRequests).toHaveLength(3);
  expect(rootRequests[2]?.toolNames).toEqual([]);
  const journal = await harness.journal(actual.run.id);
  const capEvents = journal.filter((event) => event.type === 'history-cap-reached');
  expect(capEvents).toHaveLength(1);
  expect(capEvents[0]?.data.cap).toBe(20_000);
  expect(capEvents[0]?.data.historyBytes).toBeGreaterThanOrEqual(20_000);
  expect(harness.progress.some((line) => line.startsWith('History size limit reached'))).toBe(true);
  const run = await harness.store.getRun(actual.run.id);
  expect(run?.historyCapReachedAt).toBeDefined();
});

test('a run within its history cap is not stopped, and the cap is fixed on its record', async () => {
  harness = await startHarness();
  harness.server.queue(isRoot, { content: 'A short reply.' });
  const actual = await harness.start();
  expect(actual.reply).toBe('A short reply.');
  expect(actual.run.historyCapBytes).toBe(16 * 1024 * 1024);
  expect((await harness.journal(actual.run.id)).some((event) => event.type === 'history-cap-reached')).toBe(false);
});

test('a run resumed by a new worker counts what the stopped one wrote toward its history cap', async () => {
  harness = await startHarness();
  // The page's chat alone is most of the cap: 15,000 of the run's 20,000 bytes.
  const longChat = { ...snapshot, messages: [...snapshot.messages.slice(0, -1), { role: 'user' as const, content: `Remember: ${'y'.repeat(15_000)}` }, ...snapshot.messages.slice(-1)] };
  const stopping = harness.newRuntime(undefined, { historyCapBytes: 20_000 });
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'The reply, within the size.' });
  let criticAsked: () => void = () => undefined;
  const asked = new Promise<void>((resolve) => (criticAsked = resolve));
  harness.queueLater(
    isCritic,
    () => (criticAsked(), { fault: 'hang' as const }),
    // After the restart: 6,000 more bytes take the run past 20,000, so the critic's next call is its wrap-up.
    { content: `Notes: ${'x'.repeat(6_000)}`, toolCalls: [{ name: 'workspace_list', arguments: {} }] },
    { toolCalls: [{ name: 'task_return', arguments: { summary: 'What I had at the size limit.' } }] },
  );
  const stopped = harness.startOn(stopping, { snapshot: longChat });
  await asked;
  await stopping.shutdown();
  const { run, suspended } = await stopped;
  expect(suspended).toBe(true);

  const resumed = await harness.newRuntime(await harness.reopenStore()).resumeRun(run.id, { resolveModel: harness.resolveModel });

  expect(resumed.run.status).toBe('completed');
  const criticRequests = harness.server.requests.filter(isCritic);
  expect(criticRequests.at(-1)?.toolNames).toEqual(['task_return']);
  expect(criticRequests.at(-1)?.allText).toContain('as much history as Retinue keeps for one turn');
  expect((await harness.journal(run.id)).filter((event) => event.type === 'history-cap-reached')).toHaveLength(1);
});
