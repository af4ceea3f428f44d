/**
 * Side panel scale (not a test; `npm run bench`, or `npx tsx bench/side-panel.bench.ts`).
 * Renders the panel in happy-dom over a fake-indexeddb run store and prints ratios against baselines
 * measured in the same process: history with 1,000 runs against 10 runs, a run with 50 tasks against
 * one with 1 task, one task's update (a journal event through the store) in each, a clock tick
 * while the run works (the axis grows: one style property on the timeline, the running times' text),
 * and the run's end (its record read again, its history row changed).
 * A ratio near 1 means the panel does not slow down with scale: history is rendered a page at a time,
 * and so are a run's task list and timeline (12 rows, more as their end nears the viewport, which
 * happy-dom never reports); each run checks that the rows not drawn are announced.
 */
// First, as in every entry point: zod runs jitless, as it must in the extension (no eval under its CSP).
import '../src/zod-jitless';
import 'fake-indexeddb/auto';
import { Window } from 'happy-dom';
import { performance } from 'node:perf_hooks';

const happyWindow = new Window({ url: 'https://bench.invalid/sidepanel.html' });
Object.assign(globalThis, {
  window: happyWindow,
  document: happyWindow.document,
  HTMLElement: happyWindow.HTMLElement,
  Node: happyWindow.Node,
  Event: happyWindow.Event,
  // happy-dom's observer never reports a row on screen (it lays nothing out), as a browser would for rows below the fold.
  IntersectionObserver: happyWindow.IntersectionObserver,
});

// The panel's text comes from `browser.i18n`; answer from the English messages as the browser would.
const englishMessages = (await import('../public/_locales/en/messages.json', { with: { type: 'json' } })).default as Record<string, { message: string }>;
// Storage (the panel reads page notices from storage.session) comes from the same fake browser the unit tests use.
const { fakeBrowser } = await import('@webext-core/fake-browser');
Object.assign(globalThis, {
  browser: {
    runtime: { id: 'bench' },
    storage: fakeBrowser.storage,
    i18n: {
      getMessage: (key: string, substitutions: string[] = []) =>
        (englishMessages[key]?.message ?? '').replace(/\$(\d)/g, (whole, digit: string) => substitutions[Number(digit) - 1] ?? whole),
    },
  },
});

const { render } = await import('preact');
const { h } = await import('preact');
const { openRunStore } = await import('../src/store/idb-run-store');
const { createSidePanelState } = await import('../src/ui/side-panel/side-panel-state');
const { SidePanelApp } = await import('../src/ui/side-panel/side-panel-app');
const { settingsSchema } = await import('../src/settings/schema');
const { emptyUsage } = await import('../src/records/usage');
const { ROWS_PER_PAGE } = await import('../src/ui/side-panel/shown-rows');
type RunStore = import('../src/store/run-store').RunStore;
type AgentTaskRecord = import('../src/records/task').AgentTaskRecord;
type JournalEvent = import('../src/records/journal').JournalEvent;

const SITE = 'http://127.0.0.1:8000';
const REPEATS = 7;

function task(runId: string, index: number, status: AgentTaskRecord['status']): AgentTaskRecord {
  return {
    id: `${runId}-task-${index}`, runId, parentInvocationId: `${runId}-root`, childInvocationId: `${runId}-child-${index}`,
    targetProfileId: 'scene-critic', workspaceKey: index === 0 ? 'scene-critic' : `scene-critic-${String(index + 1).padStart(3, '0')}`,
    continuation: 'returnToParent', status, task: { title: `Critique scene part ${index + 1}`, objective: 'Critique it.' },
    budget: { maxRounds: 6, maxToolCalls: 12 }, createdAt: 20_000 + index * 10, startedAt: 20_000 + index * 10, usage: { ...emptyUsage(), rounds: 2, toolCalls: 3, totalTokens: 1_500 },
  };
}

async function seed(name: string, options: { runs: number; tasksInLatest: number }): Promise<RunStore> {
  const store = await openRunStore({ name });
  for (let index = 0; index < options.runs; index += 1) {
    const latest = index === options.runs - 1;
    await store.putRun({
      id: `run-${index}`, origin: SITE, adapter: 'sillytavern', title: `Chat turn ${index}: the lighthouse, part ${index}`,
      status: latest ? 'running' : 'completed', rootInvocationId: `run-${index}-root`, createdAt: 10_000 + index,
      reply: latest ? undefined : `Reply ${index}. The keeper's lantern went out.`, usage: emptyUsage(),
    });
  }
  for (let index = 0; index < options.tasksInLatest; index += 1) await store.putTask(task(`run-${options.runs - 1}`, index, 'running'));
  return store;
}

const connection = {
  subscribeRun: () => undefined, subscribeOrigin: () => undefined, cancelRun: () => undefined, cancelTask: () => undefined, reviewTask: () => undefined, sendGuidance: () => undefined, runAgent: () => undefined,
  onEvent: () => () => undefined, onRunsDeleted: () => () => undefined, onReconnect: () => () => undefined, onError: () => () => undefined, close: () => undefined,
};
const settingsAccess = {
  load: async () => settingsSchema.parse({ version: 1, sites: [{ origin: SITE }] }),
  onChanged: () => () => undefined,
  setGlobalEnabled: async () => undefined,
  switchSite: async () => ({ ok: true as const }),
};

/** A list drawn in part ends in a button naming the rows not drawn yet; one drawn in full has none. */
function expectMore(container: { querySelector(selector: string): { textContent: string | null } | null }, selector: string, hidden: number, label: string): void {
  const more = container.querySelector(`${selector} button`)?.textContent;
  if (hidden === 0 ? more !== undefined : !more?.startsWith(`Show ${hidden} more`)) throw new Error(`${label}: ${selector} reads ${more ?? 'nothing'} with ${hidden} rows not drawn`);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const flushRenders = async () => {
  for (let round = 0; round < 3; round += 1) await new Promise((resolve) => setTimeout(resolve, 0));
};

interface Scenario {
  initialRender: number;
  taskUpdate: number;
  clockTick: number;
  /** The run ends: its record and history's row change (history is kept, not read again). */
  runEnd: number;
  rowsRendered: number;
}

async function measure(label: string, options: { runs: number; tasksInLatest: number }): Promise<Scenario> {
  const store = await seed(`bench-${label}`, options);
  const initial: number[] = [];
  const updates: number[] = [];
  const ticks: number[] = [];
  const ends: number[] = [];
  let rowsRendered = 0;
  for (let repeat = 0; repeat < REPEATS; repeat += 1) {
    // The panel's clock reads 30 s after the latest run began (its tasks started at 20 s).
    const state = createSidePanelState({ store, connection, settings: settingsAccess, refreshDelayMs: 0, now: () => 30_000 });
    await state.setOrigin(SITE);
    await state.settled();
    const container = happyWindow.document.createElement('div');
    happyWindow.document.body.appendChild(container);

    let started = performance.now();
    render(h(SidePanelApp, { state }), container as unknown as Element);
    initial.push(performance.now() - started);
    rowsRendered = container.querySelectorAll('.history-row').length + container.querySelectorAll('.task-row').length;

    // One task finishes: the store has the new record, the journal event arrives, the row changes.
    const runId = state.run.value!.id;
    const changed = { ...task(runId, 0, 'completed'), resultStatus: 'partial' as const, endedAt: 9_000 + repeat };
    await store.putTask(changed);
    const event: JournalEvent = { runId, seq: 100 + repeat, time: 9_000, type: 'task-end', taskId: changed.id, data: {} };
    started = performance.now();
    state.applyEvent(event);
    await state.settled();
    await flushRenders();
    updates.push(performance.now() - started);
    if (container.querySelector(`[data-task-id="${changed.id}"]`)?.getAttribute('data-status') !== 'partial') {
      throw new Error(`${label}: the task row did not show the update`);
    }

    // A second passes while the run works: the timeline's axis grows and every running bar with it.
    const axisBefore = container.querySelector('.timeline-axis')?.textContent;
    started = performance.now();
    state.now.value += 1_000;
    await flushRenders();
    ticks.push(performance.now() - started);
    // A page of rows is drawn (happy-dom reports nothing near the viewport); the last item says how many more there are.
    const timelineBars = container.querySelectorAll('.timeline-bar').length;
    if (timelineBars !== Math.min(options.tasksInLatest + 1, ROWS_PER_PAGE)) throw new Error(`${label}: the timeline drew ${timelineBars} bars for ${options.tasksInLatest} tasks`);
    expectMore(container, '.timeline-more', options.tasksInLatest + 1 - timelineBars, label);
    expectMore(container, '.task-more', options.tasksInLatest - container.querySelectorAll('.task-row').length, label);
    if (container.querySelector('.timeline-axis')?.textContent === axisBefore) throw new Error(`${label}: the timeline's axis did not grow with the clock`);

    // The run ends: the store has its record, its `run-end` arrives, history's row says so.
    const running = state.run.value!;
    await store.putRun({ ...running, status: 'completed', endedAt: 31_000 });
    started = performance.now();
    state.applyEvent({ runId, seq: 200 + repeat, time: 31_000, type: 'run-end', data: { status: 'completed' } } as JournalEvent);
    await state.settled();
    await flushRenders();
    ends.push(performance.now() - started);
    if (state.history.value[0]?.status !== 'completed') throw new Error(`${label}: history did not show the run's end`);
    await store.putRun(running);
    await store.putTask(task(runId, 0, 'running'));
    render(null, container as unknown as Element);
    container.remove();
    state.dispose();
  }
  store.close();
  return { initialRender: median(initial), taskUpdate: median(updates), clockTick: median(ticks), runEnd: median(ends), rowsRendered };
}

const format = (milliseconds: number) => `${milliseconds.toFixed(2)} ms`;
const ratio = (value: number, baseline: number) => `${(value / baseline).toFixed(2)}×`;

// A first pass warms up the JIT and module caches, so the first baseline is not charged for it.
await measure('warm-up', { runs: 10, tasksInLatest: 5 });
const smallHistory = await measure('history-10', { runs: 10, tasksInLatest: 1 });
const largeHistory = await measure('history-1000', { runs: 1_000, tasksInLatest: 1 });
const smallRun = await measure('run-1-task', { runs: 1, tasksInLatest: 1 });
const largeRun = await measure('run-50-tasks', { runs: 1, tasksInLatest: 50 });

console.log(`Side panel in happy-dom, median of ${REPEATS} (ratios against the baseline of the same run):`);
const row = (scenario: Scenario, ratioText: string) => ({
  'initial render': format(scenario.initialRender),
  'task update': format(scenario.taskUpdate),
  'clock tick': format(scenario.clockTick),
  'run end': format(scenario.runEnd),
  rows: scenario.rowsRendered,
  ratio: ratioText,
});
console.table({
  'history: 10 runs (baseline)': row(smallHistory, '1.00×'),
  'history: 1,000 runs': row(largeHistory, `${ratio(largeHistory.initialRender, smallHistory.initialRender)} render, ${ratio(largeHistory.taskUpdate, smallHistory.taskUpdate)} update, ${ratio(largeHistory.runEnd, smallHistory.runEnd)} run end`),
  'run: 1 task (baseline)': row(smallRun, '1.00×'),
  'run: 50 tasks': row(largeRun, `${ratio(largeRun.initialRender, smallRun.initialRender)} render, ${ratio(largeRun.taskUpdate, smallRun.taskUpdate)} update, ${ratio(largeRun.clockTick, smallRun.clockTick)} tick`),
});
console.log(
  'Initial render grows with the rows actually drawn: history draws one page (50 rows) whatever its length, ' +
    'a run one page of tasks and of timeline bars (12 each) however many it has. In happy-dom most of that time ' +
    'is its own node bookkeeping; a browser is faster. A task update re-reads one record and re-renders one row, ' +
    'so it stays flat. A clock tick sets the axis span and the running rows\' times, so it grows with the running rows drawn. ' +
    'A run\'s end re-reads the run and changes its row in history, which is kept, not read again: flat with history\'s length.',
);
await happyWindow.happyDOM.close();
