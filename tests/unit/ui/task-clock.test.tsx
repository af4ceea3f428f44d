// @vitest-environment happy-dom
import { signal } from '@preact/signals';
import { act, render } from '@testing-library/preact';
import { Fragment, options, type VNode } from 'preact';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentTaskRecord } from '../../../src/records/task';
import { CostLine } from '../../../src/ui/side-panel/cost-line';
import { RunTimeline } from '../../../src/ui/side-panel/run-timeline';
import { TaskList } from '../../../src/ui/side-panel/task-list';
import { buildRun, buildTask } from '../../support/record-builders';
import { freshRunStorePerTest } from '../../support/fresh-run-store';
import { installEnglishMessages } from '../../support/english-messages';

beforeAll(installEnglishMessages);

const START = 10_000;
const NOW = START + 30_000;

/** Two helpers at work, three finished and one waiting: a tick should reach the two only. */
function tasks(): AgentTaskRecord[] {
  const task = (id: string, overrides: Partial<AgentTaskRecord>) =>
    buildTask({ id, runId: 'run-1', parentInvocationId: 'run-1-root', childInvocationId: `${id}-invocation`, workspaceKey: id, createdAt: START + 1_000, ...overrides });
  return [
    task('busy', { status: 'running', startedAt: START + 1_000 }),
    task('done', { status: 'completed', resultStatus: 'completed', startedAt: START + 1_000, endedAt: START + 5_000 }),
    task('also-busy', { status: 'running', startedAt: START + 20_000 }),
    task('broke', { status: 'failed', startedAt: START + 2_000, endedAt: START + 3_000 }),
    task('waiting', { status: 'queued' }),
    task('half', { status: 'completed', resultStatus: 'partial', startedAt: START + 1_000, endedAt: START + 9_000 }),
  ];
}

/** The names of the components Preact renders while `work` runs (counted by Preact's own render hook). */
async function componentsRenderedBy(work: () => void): Promise<string[]> {
  const rendered: string[] = [];
  const previous = options.diffed;
  options.diffed = (vnode: VNode) => {
    // Fragments wrap a component's lists; they are part of the component that rendered them.
    if (typeof vnode.type === 'function' && vnode.type !== Fragment) rendered.push(vnode.type.displayName ?? vnode.type.name);
    previous?.(vnode);
  };
  try {
    await act(work);
  } finally {
    options.diffed = previous;
  }
  return rendered.sort();
}

/** What in the page changed while `work` ran: each changed node's nearest element, by class or tag. */
async function changesBy(root: Element, work: () => void): Promise<Element[]> {
  const records: MutationRecord[] = [];
  const observer = new MutationObserver((batch) => void records.push(...batch));
  observer.observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
  await act(work);
  await new Promise((resolve) => setTimeout(resolve, 0));
  observer.disconnect();
  return records.map((record) => (record.target instanceof Element ? record.target : record.target.parentElement!));
}

describe('the panel clock', () => {
  const store = freshRunStorePerTest();

  function renderRun() {
    const clock = signal(NOW);
    const run = buildRun({ createdAt: START, status: 'running' });
    const view = render(
      <>
        <CostLine run={run} journal={[]} now={clock} />
        <RunTimeline run={run} tasks={tasks()} journal={[]} now={clock} />
        <TaskList tasks={tasks()} store={store.current} now={clock} onCancel={() => undefined} />
      </>,
    );
    return { clock, container: view.container };
  }

  it('re-renders on a tick only the running tasks’ times, the running bars’ details, the axis’s end and the wall time', async () => {
    const { clock } = renderRun();

    const rendered = await componentsRenderedBy(() => void (clock.value += 1_000));

    // Two running tasks, each with a row and a bar (the root's bar runs too); the run's own time in the cost line and on the axis.
    expect(rendered).toEqual(['AxisEnd', 'BarDetails', 'BarDetails', 'BarDetails', 'RunElapsed', 'TaskElapsed', 'TaskElapsed']);
  });

  it('changes on a tick only the text that moved and the axis’s span, and shows the new times', async () => {
    const { clock, container } = renderRun();
    const elapsedOf = (taskId: string) => container.querySelector(`[data-task-id="${taskId}"] .task-elapsed`)?.textContent;
    expect(elapsedOf('busy')).toBe('Elapsed 29s');

    const changed = await changesBy(container, () => void (clock.value += 1_000));

    const where = new Set(
      changed.map((element) =>
        element.closest('.task-elapsed') ? `task ${element.closest('[data-task-id]')!.getAttribute('data-task-id')}` : element.closest('.timeline-details') ? 'bar details' : element.closest('.timeline-axis') ? 'axis' : element.closest('.cost-total') ? 'wall time' : element.className,
      ),
    );
    expect([...where].sort()).toEqual(['axis', 'bar details', 'task also-busy', 'task busy', 'timeline-plot', 'wall time']);
    expect(elapsedOf('busy')).toBe('Elapsed 30s');
    expect(elapsedOf('also-busy')).toBe('Elapsed 11s');
    expect(elapsedOf('done')).toBe('Elapsed 4s');
    expect(container.querySelector<HTMLElement>('.timeline-plot')!.style.getPropertyValue('--timeline-span')).toBe('31000');
  });
});
