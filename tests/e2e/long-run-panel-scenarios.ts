import { expect } from 'vitest';
import type { AgentRun } from '../../src/records/run';
import type { AgentTaskRecord } from '../../src/records/task';
import { DEFAULT_RUN_STORE_NAME } from '../../src/store/schema';
import { ROWS_PER_PAGE } from '../../src/ui/side-panel/shown-rows';
import { buildRun, buildTask } from '../support/record-builders';
import { evaluateIn, waitUntil, type EvaluatingHandle } from './support/evaluating-handle';

/**
 * A finished run of 40 tasks in the side panel, for Chromium and Firefox alike: the records go
 * straight into the extension's run store (a run this long through the scripted model would test
 * the runtime, not the panel); the panel, opened afterwards, draws a page of rows, the browser's
 * IntersectionObserver draws the rest as the lists' ends scroll near, and the stylesheet places each
 * bar from the CSS variables the rows carry.
 */

export const LONG_RUN_TASKS = 40;
const START = Date.now() - 120_000;
/** The run lasts 80 s; task i starts at i seconds and works 20 s. */
const RUN_LENGTH = 80_000;

function longRun(origin: string): { run: AgentRun; tasks: AgentTaskRecord[] } {
  const run = buildRun({ id: 'long-run', origin, title: 'A long run', status: 'completed', createdAt: START, endedAt: START + RUN_LENGTH, rootInvocationId: 'long-run-root' });
  const tasks = Array.from({ length: LONG_RUN_TASKS }, (_, index) =>
    buildTask({
      id: `long-task-${index}`, runId: run.id, parentInvocationId: run.rootInvocationId, childInvocationId: `long-child-${index}`,
      workspaceKey: `helper-${String(index).padStart(2, '0')}`, status: 'completed', resultStatus: 'completed',
      task: { title: `Part ${index}`, objective: 'o' }, createdAt: START + index * 1_000, startedAt: START + index * 1_000, endedAt: START + index * 1_000 + 20_000,
    }),
  );
  return { run, tasks };
}

/** Writes the long run into the extension's run store from one of its pages (tasks in order, as the store numbers them). */
export async function seedLongRun(extensionPage: EvaluatingHandle, origin: string): Promise<void> {
  await evaluateIn(
    extensionPage,
    async ({ name, run, tasks }) => {
      const database = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(name);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error ?? new Error(`could not open ${name}`));
      });
      const transaction = database.transaction(['runs', 'tasks'], 'readwrite');
      transaction.objectStore('runs').put(run);
      tasks.forEach((task, index) => transaction.objectStore('tasks').put({ ...task, storeOrder: index + 1 }));
      await new Promise<void>((resolve, reject) => {
        transaction.oncomplete = () => resolve();
        transaction.onerror = () => reject(transaction.error ?? new Error('the seed transaction failed'));
      });
      database.close();
    },
    { name: DEFAULT_RUN_STORE_NAME, ...longRun(origin) },
  );
}

interface PanelCounts {
  taskRows: number;
  bars: number;
  taskMore: string | undefined;
}

const readCounts = (panel: EvaluatingHandle) =>
  evaluateIn(
    panel,
    () => ({
      taskRows: document.querySelectorAll('.task-row').length,
      bars: document.querySelectorAll('.timeline-bar').length,
      taskMore: document.querySelector('.task-more button')?.textContent ?? undefined,
    }),
    undefined,
  ) as Promise<PanelCounts>;

/** Where the bar of task `index` sits on its track, in percent of the track's width, as the browser laid it out. */
const readPlacement = (panel: EvaluatingHandle, index: number) =>
  evaluateIn(
    panel,
    (taskId) => {
      const row = document.querySelector(`.timeline-row[data-bar-id="${taskId}"]`);
      const track = row?.querySelector('.timeline-track')?.getBoundingClientRect();
      const bar = row?.querySelector('.timeline-bar')?.getBoundingClientRect();
      if (!track || !bar) return undefined;
      return { left: ((bar.left - track.left) / track.width) * 100, width: (bar.width / track.width) * 100 };
    },
    `long-task-${index}`,
  );

/**
 * The panel (open after the seed) first draws a page of each list, each list's end saying what is
 * left; scrolling to the bottom draws the rest, as the browser reports the ends near the viewport.
 */
export async function expectLongRunDrawnAsScrolled(panel: EvaluatingHandle): Promise<void> {
  await waitUntil(async () => (await readCounts(panel)).taskRows > 0 || undefined, { description: 'the long run’s task rows' });
  const first = await readCounts(panel);
  // The panel is taller than a page of timeline bars: the browser may already have drawn more of it, never all at once.
  expect(first.taskRows).toBeLessThan(LONG_RUN_TASKS);
  expect(first.taskMore).toMatch(new RegExp(`^Show ${LONG_RUN_TASKS - first.taskRows} more tasks \\(${first.taskRows} of ${LONG_RUN_TASKS} shown\\)$`));
  expect(first.taskRows % ROWS_PER_PAGE).toBe(0);

  // Bars sit where their times put them: task 8 (on the first page, which is drawn however far the
  // browser has got with the rest) starts at 8 s of 80 s and works 20 s.
  const placement = await waitUntil(() => readPlacement(panel, 8), { description: 'the timeline bar of task 8 laid out' });
  expect(placement.left).toBeCloseTo(10, 0);
  expect(placement.width).toBeCloseTo(25, 0);

  const all = await waitUntil(
    async () => {
      // As a reader scrolls: most of a screen at a time (a jump to the bottom can pass the timeline's end between two frames), from the top again at the end.
      await evaluateIn(
        panel,
        () => (window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1 ? window.scrollTo(0, 0) : window.scrollBy(0, window.innerHeight * 0.8)),
        undefined,
      );
      const counts = await readCounts(panel);
      return counts.taskRows === LONG_RUN_TASKS && counts.bars === LONG_RUN_TASKS + 1 ? counts : undefined;
    },
    { description: 'every task row and bar drawn while scrolling down', timeoutMs: 20_000 },
  );
  expect(all.taskMore).toBeUndefined();
  const last = await readPlacement(panel, LONG_RUN_TASKS - 1);
  expect(last?.left).toBeCloseTo((39 / 80) * 100, 0);
}
