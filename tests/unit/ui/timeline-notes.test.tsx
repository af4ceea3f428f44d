// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GuidanceNote } from '../../../src/records/guidance-note';
import type { JournalEvent } from '../../../src/records/journal';
import type { AgentRun } from '../../../src/records/run';
import { RunTimeline } from '../../../src/ui/side-panel/run-timeline';
import { quotedNote } from '../../../src/ui/side-panel/timeline-notes';
import { buildRun, buildTask } from '../../support/record-builders';
import { installEnglishMessages } from '../../support/english-messages';

// Guidance notes on the run timeline (issue 25 item 3): each on its invocation's bar, at the moment sent.
beforeAll(installEnglishMessages);
afterEach(cleanup);

/** Where a mark sits on the time axis, as the stylesheet places it: its offset over the plot's span. */
function placeOf(mark: HTMLElement | null | undefined): string {
  const span = Number((mark?.closest('.timeline-plot') as HTMLElement | null)?.style.getPropertyValue('--timeline-span'));
  return `${(100 * Number(mark?.style.getPropertyValue('--at'))) / span}%`;
}

const START = 10_000;
const critic = buildTask({
  id: 'critic-task', runId: 'run-1', parentInvocationId: 'run-1-root', childInvocationId: 'critic-invocation', workspaceKey: 'scene-critic',
  status: 'running', createdAt: START + 1_000, startedAt: START + 1_000, task: { title: 'Critique', objective: 'o' },
});

function note(overrides: Partial<GuidanceNote>): GuidanceNote {
  return { id: 'note-1', invocationId: 'critic-invocation', taskId: 'critic-task', text: 'the duke is left-handed.', sentAt: START + 2_500, ...overrides };
}

function renderWith(run: AgentRun, journal: JournalEvent[] = []) {
  return render(<RunTimeline run={run} tasks={[critic]} journal={journal} now={START + 10_000} />);
}

const marksOf = (barId: string) => [...document.querySelectorAll<HTMLElement>(`.timeline-row[data-bar-id="${barId}"] .timeline-note`)];
const detailsOf = (barId: string) => document.querySelector(`.timeline-row[data-bar-id="${barId}"] [role="tooltip"]`)?.textContent ?? '';

describe('notes on the timeline', () => {
  it('marks a waiting note on its task’s bar at the moment it was sent, with a label saying it waits', () => {
    renderWith(buildRun({ createdAt: START, status: 'running', guidance: [note({})] }));

    const [mark] = marksOf('critic-task');
    expect(marksOf('root')).toHaveLength(0);
    expect(placeOf(mark)).toBe('25%');
    expect(mark?.dataset['applied']).toBe('false');
    const label = 'Note sent at 2.5s, waiting for its next call: the duke is left-handed.';
    expect(screen.getByRole('img', { name: label })).toBe(mark);
    expect(mark?.getAttribute('title')).toBe(label);
    expect(detailsOf('critic-task')).toContain(label);
    expect(screen.getByRole('list', { name: 'Legend' }).textContent).toContain('Note waiting for its call');
  });

  it('says at which round an applied note went in, with a mark of its own', () => {
    const waiting = renderWith(buildRun({ createdAt: START, status: 'running', guidance: [note({})] }));
    const waitingMark = marksOf('critic-task')[0]?.textContent;
    waiting.unmount();

    renderWith(buildRun({ createdAt: START, status: 'running', guidance: [note({ appliedAt: START + 4_000, appliedRound: 2 })] }));

    const [mark] = marksOf('critic-task');
    expect(mark?.dataset['applied']).toBe('true');
    expect(mark?.textContent).not.toBe(waitingMark);
    expect(mark?.getAttribute('aria-label')).toBe('Note sent at 2.5s, in its request at round 2: the duke is left-handed.');
    expect(detailsOf('critic-task')).toContain('in its request at round 2');
    expect(screen.getByRole('list', { name: 'Legend' }).textContent).toContain('Note in a request');
  });

  it('puts a note to the writer on the writer’s row, and takes an older note’s round from the journal', () => {
    const toWriter = note({ id: 'note-2', invocationId: 'run-1-root', taskId: undefined, sentAt: START + 5_000, appliedAt: START + 6_000 });
    const applied = { runId: 'run-1', seq: 4, time: START + 6_000, type: 'guidance-applied', invocationId: 'run-1-root', data: { noteId: 'note-2', round: 3 } } as JournalEvent;

    renderWith(buildRun({ createdAt: START, status: 'running', guidance: [toWriter] }), [applied]);

    expect(marksOf('critic-task')).toHaveLength(0);
    expect(marksOf('root').map((mark) => [placeOf(mark), mark.getAttribute('aria-label')])).toEqual([
      ['50%', 'Note sent at 5.0s, in its request at round 3: the duke is left-handed.'],
    ]);
  });

  it('marks every note a bar was sent, a long one quoted by its opening', () => {
    const long = `${'word '.repeat(100)}end`;
    renderWith(buildRun({ createdAt: START, status: 'running', guidance: [note({}), note({ id: 'note-3', text: long, sentAt: START + 7_500 })] }));

    const marks = marksOf('critic-task');
    expect(marks.map((mark) => placeOf(mark))).toEqual(['25%', '75%']);
    const label = marks[1]?.getAttribute('aria-label') ?? '';
    expect(label.endsWith('…')).toBe(true);
    expect(label.length).toBeLessThan(160);
  });

  it('quotes a note with its whitespace folded, whole when short', () => {
    expect(quotedNote('  the duke\n\nis   left-handed ')).toBe('the duke is left-handed');
    expect(quotedNote('x'.repeat(200))).toHaveLength(80);
  });
});
