import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ScriptedRequest } from '../../support/scripted-model-server';
import { isChecker, isCritic, isRoot, startHarness, testProfiles, type Harness, delegate } from './runtime-harness';

let harness: Harness;
beforeEach(async () => {
  harness = await startHarness();
});
afterEach(async () => {
  await harness.close();
});

const taskReturn = (summary: string, delayMs = 0) => ({ delayMs, toolCalls: [{ name: 'task_return', arguments: { summary } }] });
const rootResults = (): string[] => harness.server.requests.filter(isRoot).map((request: ScriptedRequest) => request.lastMessageText);

test('nextCompleted hands over the first result to finish; allCompleted then the rest', async () => {
  harness.server.queue(
    isRoot,
    { toolCalls: [delegate('scene-critic', 'Critique'), delegate('continuity-checker', 'Check')] },
    { toolCalls: [{ name: 'agent_await', arguments: { mode: 'nextCompleted' } }] },
    { toolCalls: [{ name: 'agent_await', arguments: { mode: 'allCompleted' } }] },
    { content: 'Done.' },
  );
  harness.server.queue(isCritic, taskReturn('Critic result.'));
  // The checker answers only once the root has read the critic's result.
  const criticDelivered = harness.nextEvent((event) => event.type === 'tool-call-end' && event.data['tool'] === 'agent.await');
  harness.queueLater(isChecker, async () => (await criticDelivered, taskReturn('Checker result.')));

  const actual = await harness.start();

  expect(actual.reply).toBe('Done.');
  const [, , afterNext, afterAll] = rootResults();
  expect(afterNext).toContain('Critic result.');
  expect(afterNext).not.toContain('Checker result.');
  expect(afterNext).toMatch(/`continuity-checker` — running/);
  expect(afterAll).toContain('Checker result.');
  expect(afterAll).not.toContain('Critic result.');
  expect(afterAll).toContain('`scene-critic` — completed; you read its result before');
});

test('statusOnly answers at once with where each task stands', async () => {
  harness.server.queue(
    isRoot,
    { toolCalls: [delegate('scene-critic', 'Critique')] },
    { toolCalls: [{ name: 'agent_await', arguments: { mode: 'statusOnly' } }] },
    { toolCalls: [{ name: 'agent_await', arguments: { tasks: ['scene-critic'] } }] },
    { content: 'Done.' },
  );
  const statusGiven = harness.nextEvent((event) => event.type === 'tool-call-end' && event.data['tool'] === 'agent.await');
  harness.queueLater(isCritic, async () => (await statusGiven, taskReturn('Critic result.')));

  await harness.start();

  const [, , status, collected] = rootResults();
  expect(status).toContain('Where your tasks stand:');
  expect(status).toMatch(/`scene-critic` — (running|queued)/);
  expect(status).not.toContain('Critic result.');
  expect(collected).toContain('Critic result.');
});

test('an await that times out says what is still working; unknown task names are a mistake the model can fix', async () => {
  harness.server.queue(
    isRoot,
    { toolCalls: [delegate('scene-critic', 'Critique')] },
    { toolCalls: [{ name: 'agent_await', arguments: { tasks: ['critic'] } }] },
    { toolCalls: [{ name: 'agent_await', arguments: { tasks: ['scene-critic'], timeoutMs: 100 } }] },
    { toolCalls: [{ name: 'agent_cancel', arguments: { tasks: ['scene-critic'] } }] },
    { content: 'Went on without it.' },
  );
  harness.server.queue(isCritic, taskReturn('Too late.', 5_000));

  const actual = await harness.start();

  expect(actual.reply).toBe('Went on without it.');
  const [, , unknownName, timedOut, cancelled] = rootResults();
  expect(unknownName).toBe('You have no task named "critic". Your tasks: scene-critic.');
  expect(timedOut).toMatch(/Waited 0 s; this task is still working\. Call agent_await again/);
  expect(timedOut).toContain('`scene-critic` — running');
  expect(cancelled).toBe('- `scene-critic` — cancelled');
  const [task] = await harness.store.listTasks(actual.run.id);
  expect(task?.status).toBe('cancelled');
});

test('a timeout above 300 s is clamped, and the answer says so', async () => {
  harness.server.queue(
    isRoot,
    { toolCalls: [delegate('scene-critic', 'Critique')] },
    { toolCalls: [{ name: 'agent_await', arguments: { timeoutMs: 900_000 } }] },
    { content: 'Done.' },
  );
  harness.server.queue(isCritic, taskReturn('Quick result.'));

  await harness.start();

  const awaited = rootResults()[2] ?? '';
  expect(awaited).toContain('Note: timeoutMs is at most 300000 (300 s); waited up to 300 s instead of 900 s.');
  expect(awaited).toContain('Quick result.');
});

test('a result that finishes while the root is busy is announced on its next tool result', async () => {
  const criticEnded = harness.nextEvent((event) => event.type === 'task-end');
  harness.queueLater(
    isRoot,
    { toolCalls: [delegate('scene-critic', 'Critique')] },
    // Busy with its own work until the critic has finished.
    async () => (await criticEnded, { toolCalls: [{ name: 'workspace_write', arguments: { path: 'scratch/plan.md', content: 'plan' } }] }),
    { toolCalls: [{ name: 'workspace_list', arguments: {} }] },
    { toolCalls: [{ name: 'agent_await', arguments: {} }] },
    { content: 'Done.' },
  );
  harness.server.queue(isCritic, taskReturn('Early result.'));

  await harness.start();

  const [, , afterWrite, afterList, afterAwait] = rootResults();
  expect(afterWrite).toContain('Wrote `scratch/plan.md`');
  expect(afterWrite).toContain('Meanwhile finished: `scene-critic` (completed). Call agent_await to read its result.');
  expect(afterList).not.toContain('Meanwhile finished');
  expect(afterAwait).toContain('Early result.');
});

test('an await without a timeout waits as long as the task itself may take, past the settings’ default', async () => {
  await harness.close();
  harness = await startHarness({
    defaults: { awaitTimeoutMs: 1_000 },
    profiles: testProfiles({ critic: { budget: { maxRounds: 4, maxToolCalls: 6, timeoutMs: 5_000 } } }),
  });
  harness.server.queue(
    isRoot,
    { toolCalls: [delegate('scene-critic', 'Critique')] },
    { toolCalls: [{ name: 'agent_await', arguments: {} }] },
    (request) => ({ content: request.lastMessageText.includes('Slow but sure.') ? 'With the critique.' : 'Gave up waiting.' }),
  );
  harness.server.queue(isCritic, taskReturn('Slow but sure.', 2_000));

  const actual = await harness.start();

  expect(actual.reply).toBe('With the critique.');
});
