// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/preact';
import { afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { openRunStore } from '../../../src/store/idb-run-store';
import type { RunStore } from '../../../src/store/run-store';
import { TaskList } from '../../../src/ui/side-panel/task-list';
import { buildTaskTree } from '../../../src/ui/side-panel/task-tree';
import { installEnglishMessages } from '../../support/english-messages';
import { buildTask, uniqueDatabaseName } from '../../support/record-builders';

beforeAll(installEnglishMessages);

const ROOT = 'root-invocation';
/** The root gave two tasks; the critic handed one on, and that one handed one on again. */
const tasks = [
  buildTask({ id: 'critic', workspaceKey: 'scene-critic', parentInvocationId: ROOT, childInvocationId: 'critic-invocation', status: 'running', createdAt: 1 }),
  buildTask({ id: 'checker', workspaceKey: 'continuity-checker', parentInvocationId: ROOT, childInvocationId: 'checker-invocation', status: 'completed', createdAt: 2 }),
  buildTask({ id: 'names', workspaceKey: 'continuity-checker-002', parentInvocationId: 'critic-invocation', childInvocationId: 'names-invocation', status: 'running', createdAt: 3, task: { title: 'Check names', objective: 'o' } }),
  buildTask({ id: 'deep', workspaceKey: 'researcher', parentInvocationId: 'names-invocation', childInvocationId: 'deep-invocation', status: 'queued', createdAt: 4, task: { title: 'Look it up', objective: 'o' } }),
];

let store: RunStore;
beforeEach(async () => {
  store = await openRunStore({ name: uniqueDatabaseName() });
});
afterEach(() => {
  cleanup();
  store.close();
});

test('the tree puts each task under the task that handed it on, in delegation order', () => {
  const actual = buildTaskTree(tasks);

  const shape = (branches: ReturnType<typeof buildTaskTree>): unknown[] => branches.map((branch) => [branch.task.id, shape(branch.children)]);
  expect(shape(actual)).toEqual([['critic', [['names', [['deep', []]]]]], ['checker', []]]);
});

test('a task whose parent task is not loaded still shows, at the top', () => {
  const actual = buildTaskTree(tasks.slice(2));

  expect(actual.map((branch) => branch.task.id)).toEqual(['names']);
  expect(actual[0]?.children.map((branch) => branch.task.id)).toEqual(['deep']);
});

test('the side panel shows nested tasks as nested lists, each inside the item of the task that handed it on', () => {
  render(<TaskList tasks={tasks} store={store} now={10} onCancel={() => undefined} />);

  const top = screen.getByRole('region', { name: 'Delegated tasks (4)' }).querySelector(':scope > ul') as HTMLElement;
  expect([...top.children].map((item) => item.getAttribute('data-task-id'))).toEqual(['critic', 'checker']);
  const criticItem = top.querySelector('[data-task-id="critic"]') as HTMLElement;
  const handedOn = within(criticItem).getByRole('list', { name: 'Tasks scene-critic handed on' });
  expect([...handedOn.children].map((item) => item.getAttribute('data-task-id'))).toEqual(['names']);
  const deeper = within(handedOn).getByRole('list', { name: 'Tasks continuity-checker-002 handed on' });
  expect(within(deeper).getByRole('listitem').getAttribute('data-task-id')).toBe('deep');
  expect(top.querySelector('[data-task-id="checker"] ul')).toBeNull();
});
