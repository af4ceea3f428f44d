// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEvent } from '../../../src/records/journal';
import type { AgentRun } from '../../../src/records/run';
import type { AgentTaskRecord } from '../../../src/records/task';
import { RunTimeline } from '../../../src/ui/side-panel/run-timeline';
import { ROWS_PER_PAGE } from '../../../src/ui/side-panel/shown-rows';
import { buildRun, buildTask } from '../../support/record-builders';
import { installEnglishMessages } from '../../support/english-messages';

beforeAll(installEnglishMessages);
afterEach(cleanup);

const START = 10_000;
const ROOT = 'run-1-root';
const usage = (rounds: number) => ({ rounds, toolCalls: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0 });

function event(seq: number, type: JournalEvent['type'], time: number, data: Record<string, unknown> = {}, invocationId = ROOT): JournalEvent {
  // One object for any type: the union is too wide for TypeScript to check it by its discriminant.
  return { runId: 'run-1', seq, time, type, invocationId, data } as JournalEvent;
}

/** The root delegates at +1 s, awaits, then writes its reply from +9 s to +10 s. */
function rootJournal(): JournalEvent[] {
  return [
    event(1, 'run-start', START, { rootProfileId: 'writer' }),
    event(2, 'model-call-start', START + 100, { round: 1 }),
    event(3, 'model-call-end', START + 1_000, { round: 1, ok: true, toolCalls: 2 }),
    event(4, 'model-call-start', START + 9_000, { round: 2 }),
    event(5, 'model-call-end', START + 10_000, { round: 2, ok: true, toolCalls: 0 }),
    event(6, 'invocation-end', START + 10_050, { status: 'completed' }),
  ];
}

function child(id: string, overrides: Partial<AgentTaskRecord>): AgentTaskRecord {
  return buildTask({
    id, runId: 'run-1', parentInvocationId: ROOT, childInvocationId: `${id}-invocation`, workspaceKey: id,
    createdAt: START + 1_000, task: { title: `Task ${id}`, objective: 'o' }, ...overrides,
  });
}

function renderTimeline(run: AgentRun, tasks: AgentTaskRecord[], journal: JournalEvent[] = [], now = START + 20_000) {
  return render(<RunTimeline run={run} tasks={tasks} journal={journal} now={now} />);
}

const rowOf = (id: string) => document.querySelector<HTMLElement>(`.timeline-row[data-bar-id="${id}"]`)!;
const barOf = (id: string) => rowOf(id).querySelector<HTMLElement>('.timeline-bar')!;
const detailsOf = (id: string) => rowOf(id).querySelector<HTMLElement>('[role="tooltip"]')!.textContent;

/**
 * Where a bar falls on the axis, in percent, as the stylesheet places it: the row gives offsets from the
 * run's start (`--start-at`, `--end-at`, absent while it runs), the plot the axis's span.
 */
function placementOf(id: string): { left: number; width: number } {
  const offset = (element: HTMLElement, name: string) => element.style.getPropertyValue(name);
  const span = Number(offset(document.querySelector<HTMLElement>('.timeline-plot')!, '--timeline-span'));
  const start = Number(offset(rowOf(id), '--start-at') || span);
  const end = Number(offset(rowOf(id), '--end-at') || span);
  return { left: (start / span) * 100, width: ((end - start) / span) * 100 };
}

describe('RunTimeline', () => {
  it('draws a finished run: the root, each helper, the reply moments, and each status with its own mark and word', () => {
    const run = buildRun({ createdAt: START, endedAt: START + 10_100, reply: 'The end.' });
    const tasks = [
      child('done', { status: 'completed', resultStatus: 'completed', startedAt: START + 1_000, endedAt: START + 5_000, usage: usage(2) }),
      child('half', { status: 'completed', resultStatus: 'partial', startedAt: START + 1_000, endedAt: START + 8_000, usage: usage(6) }),
      child('broke', { status: 'failed', startedAt: START + 2_000, endedAt: START + 3_000, usage: usage(1) }),
      child('stopped', { status: 'cancelled', startedAt: START + 1_000, endedAt: START + 4_000 }),
    ];

    renderTimeline(run, tasks, rootJournal());

    const rows = [...document.querySelectorAll<HTMLElement>('.timeline-row')];
    expect(rows.map((row) => [row.dataset['barId'], row.dataset['status']])).toEqual([
      ['root', 'completed'], ['done', 'completed'], ['half', 'partial'], ['broke', 'failed'], ['stopped', 'cancelled'],
    ]);
    const marks = rows.map((row) => row.querySelector('.timeline-mark')?.textContent);
    expect(new Set(marks).size).toBe(4);
    expect(screen.getByRole('button', { name: 'writer (root) — Completed' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'half — Partial' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'broke — Failed' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'stopped — Cancelled' })).toBeTruthy();
    expect(screen.getByText('Reply started at 9.0s, finished at 10.0s')).toBeTruthy();
    const legend = screen.getByRole('list', { name: 'Legend' }).textContent;
    for (const word of ['Completed', 'Partial', 'Failed', 'Cancelled', 'Reply started', 'Reply finished']) expect(legend).toContain(word);
  });

  it('places each bar from its start to its end on the run’s time axis', () => {
    const run = buildRun({ createdAt: START, endedAt: START + 10_000 });
    renderTimeline(run, [child('done', { status: 'completed', startedAt: START + 2_500, endedAt: START + 7_500 })]);

    expect(placementOf('done')).toEqual({ left: 25, width: 50 });
    expect(placementOf('root').left).toBe(0);
  });

  it('shows a bar’s times from the run’s start and its rounds on focus, and keeps them after Enter until Escape', () => {
    const run = buildRun({ createdAt: START, endedAt: START + 10_100, reply: 'r' });
    renderTimeline(run, [child('done', { status: 'completed', startedAt: START + 1_500, endedAt: START + 5_000, usage: usage(2) })], rootJournal());

    expect(detailsOf('done')).toContain('Started at 1.5s, ended at 5.0s (took 3.5s)');
    expect(detailsOf('done')).toContain('Waited 0.5s in the queue');
    expect(detailsOf('done')).toContain('Rounds 2/6');
    expect(detailsOf('root')).toContain('Rounds 2');
    expect(barOf('done').getAttribute('aria-describedby')).toBe(rowOf('done').querySelector('[role="tooltip"]')!.id);

    fireEvent.click(barOf('done'));
    expect(rowOf('done').classList.contains('is-pinned')).toBe(true);
    fireEvent.keyDown(barOf('done'), { key: 'Escape' });
    expect(rowOf('done').classList.contains('is-pinned')).toBe(false);
    expect(rowOf('done').classList.contains('is-dismissed')).toBe(true);
  });

  it('grows running bars with the clock, and shows a queued task waiting', () => {
    const run = buildRun({ createdAt: START, status: 'running' });
    const tasks = [
      child('busy', { status: 'running', startedAt: START + 1_000 }),
      child('waiting', { status: 'queued', createdAt: START + 2_000 }),
    ];

    const view = renderTimeline(run, tasks, [], START + 4_000);
    const earlyWidth = placementOf('busy').width;
    expect(detailsOf('busy')).toContain('Started at 1.0s, running for 3.0s');
    expect(detailsOf('waiting')).toContain('Waiting in the queue since 2.0s');
    expect(rowOf('root').dataset['status']).toBe('running');

    view.rerender(<RunTimeline run={run} tasks={tasks} journal={[]} now={START + 10_000} />);
    const laterWidth = placementOf('busy').width;
    expect(earlyWidth).toBeCloseTo(75, 5);
    expect(laterWidth).toBeCloseTo(90, 5);
    expect(detailsOf('busy')).toContain('running for 9.0s');
    expect(screen.queryByText(/Reply started at/)).toBeNull();
  });

  it('nests a helper under the helper that delegated it', () => {
    const run = buildRun({ createdAt: START, endedAt: START + 9_000 });
    const tasks = [
      child('lead', { status: 'completed', startedAt: START + 1_000, endedAt: START + 8_000 }),
      child('other', { status: 'completed', startedAt: START + 1_000, endedAt: START + 3_000 }),
      child('helper', { status: 'completed', parentInvocationId: 'lead-invocation', startedAt: START + 2_000, endedAt: START + 4_000 }),
    ];

    renderTimeline(run, tasks);

    const rows = [...document.querySelectorAll<HTMLElement>('.timeline-row')];
    expect(rows.map((row) => row.dataset['barId'])).toEqual(['root', 'lead', 'helper', 'other']);
    expect(rows.map((row) => row.style.getPropertyValue('--depth'))).toEqual(['0', '1', '2', '1']);
  });

  it('draws one task, and fifty, one bar each with a distinct description, the fifty a page at a time', () => {
    const run = buildRun({ createdAt: START, endedAt: START + 60_000 });
    for (const count of [1, 50]) {
      const tasks = Array.from({ length: count }, (_, index) =>
        child(`t${index}`, { status: index % 7 === 3 ? 'failed' : 'completed', startedAt: START + index * 1_000, endedAt: START + index * 1_000 + 5_000 }),
      );
      const view = renderTimeline(run, tasks);

      // Nothing reports the list's end near the viewport here, so each next page is asked for by hand.
      for (let drawn = Math.min(count + 1, ROWS_PER_PAGE); drawn < count + 1; drawn = Math.min(count + 1, drawn + ROWS_PER_PAGE)) {
        expect(document.querySelectorAll('.timeline-bar')).toHaveLength(drawn);
        fireEvent.click(screen.getByRole('button', { name: `Show ${count + 1 - drawn} more bars (${drawn} of ${count + 1} shown)` }));
        expect(document.activeElement).toBe(document.querySelectorAll('.timeline-bar')[drawn]);
      }
      const bars = [...document.querySelectorAll<HTMLElement>('.timeline-bar')];
      expect(bars).toHaveLength(count + 1);
      expect(screen.queryByRole('button', { name: /^Show \d+ more bars/ })).toBeNull();
      const describedBy = new Set(bars.map((bar) => bar.getAttribute('aria-describedby')));
      expect(describedBy.size).toBe(count + 1);
      view.unmount();
    }
  });
});
