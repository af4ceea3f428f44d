import { afterEach, beforeEach, expect, test } from 'vitest';
import { HostContractError } from '../../../src/errors';
import type { RunStep, RunStore } from '../../../src/store/run-store';
import type { WorkspaceFile } from '../../../src/records/workspace-file';
import { isChecker, isCritic, isRoot, snapshot, startHarness, type Harness, delegate } from './runtime-harness';

let harness: Harness;
beforeEach(async () => {
  harness = await startHarness({ maxRetries: 0 });
});
afterEach(async () => {
  await harness.close();
});

test('one child failing never loses the other child’s result', async () => {
  harness.server.queue(
    isRoot,
    { toolCalls: [delegate('scene-critic', 'Critique'), delegate('continuity-checker', 'Check')] },
    { toolCalls: [{ name: 'agent_await', arguments: {} }] },
    { content: 'Done.' },
  );
  harness.server.script((request) => (isCritic(request) ? { fault: 'status', status: 503 } : undefined));
  harness.server.queue(isChecker, { toolCalls: [{ name: 'task_return', arguments: { summary: 'Checker result survives.' } }] });

  const actual = await harness.start();

  expect(actual.reply).toBe('Done.');
  const awaited = harness.server.requests.filter(isRoot)[2]?.lastMessageText ?? '';
  expect(awaited).toContain('### scene-critic — failed');
  expect(awaited).toContain('### continuity-checker — completed');
  expect(awaited).toContain('Checker result survives.');
});

test('a child failing while its sibling still works leaves the sibling working to its result', async () => {
  harness.server.queue(
    isRoot,
    { toolCalls: [delegate('scene-critic', 'Critique'), delegate('continuity-checker', 'Check')] },
    { toolCalls: [{ name: 'agent_await', arguments: {} }] },
    { content: 'Done.' },
  );
  harness.server.queue(isCritic, { fault: 'status', status: 400, message: 'Bad request.' });
  // The checker is mid-call when the critic fails, and answers only after the critic's end is recorded.
  const criticEnded = harness.nextEvent((event) => event.type === 'task-end' && event.data['workspaceKey'] === 'scene-critic');
  harness.queueLater(isChecker, async () => (await criticEnded, { toolCalls: [{ name: 'task_return', arguments: { summary: 'Checker result survives.' } }] }));

  const actual = await harness.start();

  const tasks = await harness.store.listTasks(actual.run.id);
  expect(tasks.map((task) => [task.workspaceKey, task.status])).toEqual([
    ['scene-critic', 'failed'],
    ['continuity-checker', 'completed'],
  ]);
  const awaited = harness.server.requests.filter(isRoot)[2]?.lastMessageText ?? '';
  expect(awaited).toContain('Checker result survives.');
  expect(harness.server.requests.filter(isChecker).map((request) => request.outcome)).toEqual(['answered']);
});

test('the user cancelling one task from the side panel stops just that task', async () => {
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'Without it.' });
  harness.server.queue(isCritic, { fault: 'hang' });
  const started = harness.nextEvent((event) => event.type === 'task-start');
  const outcome = harness.start();
  const event = await started;

  harness.runtime.cancelTask(event.runId, event.taskId ?? '');
  const actual = await outcome;

  expect(actual.reply).toBe('Without it.');
  const [task] = await harness.store.listTasks(actual.run.id);
  expect(task).toMatchObject({ status: 'cancelled', error: { code: 'task-cancelled-by-user', message: 'Cancelled by the user.' } });
  expect(harness.server.requests.filter(isRoot)[2]?.lastMessageText).toContain('`scene-critic` — cancelled: Cancelled by the user.');
});

test('tools the page put in its request are not offered to the root', async () => {
  harness.server.queue(isRoot, { content: 'Hi.' });
  const pageTools = { ...snapshot, tools: [{ type: 'function', function: { name: 'roll_dice', parameters: { type: 'object' } } }] };

  await harness.start({ snapshot: pageTools });

  expect(harness.server.requests[0]?.toolNames).not.toContain('roll_dice');
});

test('a storage failure fails the run fast, with the store’s error', async () => {
  const failingStore: RunStore = new Proxy(harness.store, {
    get(target, property, receiver) {
      // A result's file fails to save, whichever write carries it.
      const refused = (files: readonly WorkspaceFile[] = []) => files.some((file) => file.path.startsWith('agent-results/'));
      if (property === 'writeFile') {
        return async (file: WorkspaceFile) => {
          if (refused([file])) throw new HostContractError('store-write-failed', 'The store could not save a file.');
          return target.writeFile(file);
        };
      }
      if (property === 'saveStep') {
        return async (step: RunStep) => {
          if (refused(step.files)) throw new HostContractError('store-write-failed', 'The store could not save a file.');
          return target.saveStep(step);
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'Never.' });
  harness.server.queue(isCritic, { toolCalls: [{ name: 'task_return', arguments: { summary: 'Lost?' } }] });

  const actual = await harness.startOn(harness.newRuntime(failingStore));

  expect(actual.run.status).toBe('failed');
  expect(actual.run.error).toEqual({ code: 'store-write-failed', message: 'The store could not save a file.' });
  expect(harness.server.requests.filter(isRoot)).toHaveLength(2);
});
