// @vitest-environment happy-dom
import { act, fireEvent, render, screen, within } from '@testing-library/preact';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AgentTaskRecord } from '../../../src/records/task';
import { ROWS_PER_PAGE } from '../../../src/ui/side-panel/shown-rows';
import { TaskList } from '../../../src/ui/side-panel/task-list';
import { buildTask } from '../../support/record-builders';
import { freshRunStorePerTest } from '../../support/fresh-run-store';
import { installEnglishMessages } from '../../support/english-messages';

beforeAll(installEnglishMessages);

/**
 * The browser's IntersectionObserver, as far as a list needs it: the test says when an observed
 * element comes near the viewport (happy-dom lays nothing out, so its own never reports).
 */
class ReportedIntersections {
  static observers = new Set<ReportedIntersections>();
  private readonly elements = new Set<Element>();
  constructor(private readonly callback: IntersectionObserverCallback) {
    ReportedIntersections.observers.add(this);
  }
  observe(element: Element): void {
    this.elements.add(element);
  }
  unobserve(element: Element): void {
    this.elements.delete(element);
  }
  disconnect(): void {
    this.elements.clear();
    ReportedIntersections.observers.delete(this);
  }
  /** Reports every observed element matching `selector` as near the viewport. */
  static near(selector: string): void {
    for (const observer of [...ReportedIntersections.observers]) {
      const entries = [...observer.elements].filter((element) => element.matches(selector)).map((target) => ({ target, isIntersecting: true }) as IntersectionObserverEntry);
      if (entries.length > 0) observer.callback(entries, observer as unknown as IntersectionObserver);
    }
  }
}

const TASK_COUNT = 30;

/** 30 tasks; the writer's 10th handed two on, so the tree's order is not the records' order. */
function manyTasks(): AgentTaskRecord[] {
  return Array.from({ length: TASK_COUNT }, (_, index) =>
    buildTask({
      id: `t${index}`,
      workspaceKey: `helper-${index}`,
      status: index % 3 === 0 ? 'running' : 'completed',
      startedAt: 1_000,
      endedAt: index % 3 === 0 ? undefined : 2_000,
      parentInvocationId: index >= 28 ? 'invocation-t9' : 'root',
      childInvocationId: `invocation-t${index}`,
      task: { title: `Part ${index}`, objective: 'o' },
    }),
  );
}

const drawnTaskIds = () => [...document.querySelectorAll('[data-task-id]')].map((row) => row.getAttribute('data-task-id'));

describe('a long task list', () => {
  const store = freshRunStorePerTest();
  const browserObserver = globalThis.IntersectionObserver;

  afterEach(() => {
    globalThis.IntersectionObserver = browserObserver;
    ReportedIntersections.observers.clear();
  });

  const renderList = () => render(<TaskList tasks={manyTasks()} store={store.current} now={5_000} onCancel={() => undefined} />);

  it('draws a page of rows in the tree’s order, says how many there are in all, and how many are not drawn yet', () => {
    renderList();

    expect(screen.getByRole('region', { name: `Delegated tasks (${TASK_COUNT})` })).toBeTruthy();
    // The 10th task's two helpers come right after it.
    expect(drawnTaskIds()).toEqual(['t0', 't1', 't2', 't3', 't4', 't5', 't6', 't7', 't8', 't9', 't28', 't29']);
    expect(screen.getByRole('button', { name: `Show ${TASK_COUNT - ROWS_PER_PAGE} more tasks (${ROWS_PER_PAGE} of ${TASK_COUNT} shown)` })).toBeTruthy();
  });

  it('reaches every task from the keyboard: asking for more draws the next page and moves focus to its first task', () => {
    renderList();

    fireEvent.click(screen.getByRole('button', { name: /^Show 18 more tasks/ }));
    expect(document.activeElement).toBe(within(document.querySelector<HTMLElement>('[data-task-id="t10"]')!).getByRole('button', { name: /Part 10/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Show 6 more tasks (24 of 30 shown)' }));
    expect(document.activeElement?.closest('[data-task-id]')?.getAttribute('data-task-id')).toBe('t22');

    expect(drawnTaskIds()).toHaveLength(TASK_COUNT);
    expect(screen.queryByRole('button', { name: /more tasks/ })).toBeNull();
    for (let index = 0; index < TASK_COUNT; index += 1) expect(screen.getByRole('button', { name: new RegExp(`helper-${index}\\s*Part ${index}$`) })).toBeTruthy();
  });

  it('draws the next page by itself when the list’s end nears the viewport, keeping focus and opened rows where they were', async () => {
    globalThis.IntersectionObserver = ReportedIntersections as unknown as typeof IntersectionObserver;
    renderList();
    const first = within(document.querySelector<HTMLElement>('[data-task-id="t0"]')!).getByRole('button', { name: /^helper-0/ });
    fireEvent.click(first);
    first.focus();

    await act(() => ReportedIntersections.near('.task-more'));

    expect(drawnTaskIds()).toHaveLength(2 * ROWS_PER_PAGE);
    expect(document.activeElement).toBe(first);
    expect(first.getAttribute('aria-expanded')).toBe('true');
    await act(() => ReportedIntersections.near('.task-more'));
    expect(drawnTaskIds()).toHaveLength(TASK_COUNT);
  });

  it('draws a short list whole, with no button', () => {
    render(<TaskList tasks={manyTasks().slice(0, ROWS_PER_PAGE)} store={store.current} now={5_000} onCancel={() => undefined} />);

    expect(drawnTaskIds()).toHaveLength(ROWS_PER_PAGE);
    expect(screen.queryByRole('button', { name: /more tasks/ })).toBeNull();
  });
});
