import type { ReadonlySignal } from '@preact/signals';
import { memo } from 'preact/compat';
import { useState } from 'preact/hooks';
import { t, type UiMessageKey } from '../ui-text';
import { formatOffset } from './format';
import { statusLabels } from './status-badge';
import { timelineOffset, type RunTimeline, type TimelineBar, type TimelineStatus } from './run-timeline-model';
import { noteLabel, TimelineNoteMarks } from './timeline-note-marks';

/** Each status has its own mark, so status never rests on colour alone (the bars' patterns differ too). */
export const statusMarks: Record<TimelineStatus, string> = {
  queued: '…',
  running: '▶',
  completed: '✓',
  partial: '◐',
  failed: '✕',
  cancelled: '⊘',
  interrupted: '!',
};

export const statusWords: Record<TimelineStatus, UiMessageKey> = statusLabels;

/** The details a bar shows on focus or hover: its times from the run's start (a running bar's up to `horizon`), and its rounds. */
function barDetails(bar: TimelineBar, timeline: RunTimeline, horizon: number): string[] {
  const at = (time: number) => formatOffset(time - timeline.origin);
  const lines: string[] = [];
  if (bar.start === undefined) {
    if (bar.queuedAt !== undefined) lines.push(t('sidepanel_timeline_queued', at(bar.queuedAt)));
  } else {
    if (bar.queuedAt !== undefined && bar.start - bar.queuedAt >= 100) lines.push(t('sidepanel_timeline_queued_for', formatOffset(bar.start - bar.queuedAt)));
    lines.push(
      bar.end === undefined
        ? t('sidepanel_timeline_times_running', at(bar.start), formatOffset(horizon - bar.start))
        : t('sidepanel_timeline_times', at(bar.start), at(bar.end), formatOffset(bar.end - bar.start)),
    );
  }
  lines.push(bar.maxRounds === undefined ? t('sidepanel_timeline_rounds', bar.rounds) : t('sidepanel_rounds', bar.rounds, bar.maxRounds));
  return lines;
}

export interface TimelineRowProps {
  bar: TimelineBar;
  timeline: RunTimeline;
  /** The right edge as the clock moves it; only a running bar's details read it. */
  horizon: ReadonlySignal<number>;
  runId: string;
}

/** A bar's details, its running time following the clock (the only part of a row a tick changes). */
function BarDetails({ bar, timeline, horizon, name, status, id }: Pick<TimelineRowProps, 'bar' | 'timeline' | 'horizon'> & { name: string; status: string; id: string }) {
  const edge = bar.start !== undefined && bar.end === undefined ? horizon.value : timeline.horizon;
  return (
    <div class="timeline-details" id={id} role="tooltip">
      <strong>
        {name} — {status}
      </strong>
      {bar.title && <span>{bar.title}</span>}
      {barDetails(bar, timeline, edge).map((line) => (
        <span key={line}>{line}</span>
      ))}
      {bar.notes?.map((note) => (
        <span key={note.id}>{noteLabel(note, timeline)}</span>
      ))}
    </div>
  );
}

/**
 * Where a row's bar and queue line fall, as offsets from the run's start for the stylesheet to divide
 * by the time axis's span (`--timeline-span`, set once on the plot): a tick that grows the axis moves
 * every bar without touching a row. A bar without an end runs to the right edge.
 */
function positionStyle(bar: TimelineBar, timeline: RunTimeline): Record<string, number> {
  const style: Record<string, number> = { '--depth': bar.depth };
  if (bar.queuedAt !== undefined) style['--queued-at'] = timelineOffset(timeline, bar.queuedAt);
  if (bar.start !== undefined) style['--start-at'] = timelineOffset(timeline, bar.start);
  if (bar.start !== undefined && bar.end !== undefined) style['--end-at'] = timelineOffset(timeline, bar.end);
  return style;
}

/**
 * One invocation's row: its name (indented by nesting), then its bar on the run's time axis with a
 * mark for each note the user sent it. The bar is a button: focus or hover shows the details, Enter or a click keeps them shown, Escape hides them.
 */
function TimelineRowComponent({ bar, timeline, horizon, runId }: TimelineRowProps) {
  const [pinned, setPinned] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const detailsId = `timeline-${runId}-${bar.id}`;
  const queued = bar.queuedAt !== undefined && (bar.start === undefined || bar.start > bar.queuedAt);
  const status = t(statusWords[bar.status]);
  const name = bar.depth === 0 && bar.label !== 'root' ? t('sidepanel_timeline_root', bar.label) : bar.label;
  return (
    <li class={`timeline-row${pinned ? ' is-pinned' : ''}${dismissed ? ' is-dismissed' : ''}`} data-bar-id={bar.id} data-status={bar.status} style={positionStyle(bar, timeline)}>
      <span class="timeline-label" title={bar.title}>
        <span class={`timeline-mark status-${bar.status}`} aria-hidden="true">{statusMarks[bar.status]}</span>
        <span class="timeline-name">{name}</span>
      </span>
      <div class="timeline-track">
        {queued && <span class="timeline-queue" aria-hidden="true" />}
        <button
          type="button"
          class={`timeline-bar bar-${bar.status}`}
          aria-describedby={detailsId}
          onClick={() => {
            setPinned(!pinned);
            setDismissed(false);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              setPinned(false);
              setDismissed(true);
            }
          }}
          onBlur={() => setDismissed(false)}
        >
          <span class="visually-hidden">{t('sidepanel_timeline_bar_name', name, status)}</span>
        </button>
        <BarDetails bar={bar} timeline={timeline} horizon={horizon} name={name} status={status} id={detailsId} />
        {bar.notes && <TimelineNoteMarks notes={bar.notes} timeline={timeline} />}
      </div>
    </li>
  );
}

/** Re-renders when its bar or the run's finished extent changes; the clock reaches only a running bar's details. */
export const TimelineRow = memo(
  TimelineRowComponent,
  (before, after) =>
    before.runId === after.runId &&
    before.horizon === after.horizon &&
    before.timeline.origin === after.timeline.origin &&
    before.timeline.horizon === after.timeline.horizon &&
    JSON.stringify(before.bar) === JSON.stringify(after.bar),
);
