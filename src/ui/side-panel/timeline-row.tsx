import { memo } from 'preact/compat';
import { useState } from 'preact/hooks';
import { t, type UiMessageKey } from '../ui-text';
import { formatOffset } from './format';
import { statusLabels } from './status-badge';
import { timelinePercent, type RunTimeline, type TimelineBar, type TimelineStatus } from './run-timeline-model';
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

/** The details a bar shows on focus or hover: its times from the run's start, and its rounds. */
function barDetails(bar: TimelineBar, timeline: RunTimeline): string[] {
  const at = (time: number) => formatOffset(time - timeline.origin);
  const lines: string[] = [];
  if (bar.start === undefined) {
    if (bar.queuedAt !== undefined) lines.push(t('sidepanel_timeline_queued', at(bar.queuedAt)));
  } else {
    if (bar.queuedAt !== undefined && bar.start - bar.queuedAt >= 100) lines.push(t('sidepanel_timeline_queued_for', formatOffset(bar.start - bar.queuedAt)));
    lines.push(
      bar.end === undefined
        ? t('sidepanel_timeline_times_running', at(bar.start), formatOffset(timeline.horizon - bar.start))
        : t('sidepanel_timeline_times', at(bar.start), at(bar.end), formatOffset(bar.end - bar.start)),
    );
  }
  lines.push(bar.maxRounds === undefined ? t('sidepanel_timeline_rounds', bar.rounds) : t('sidepanel_rounds', bar.rounds, bar.maxRounds));
  return lines;
}

export interface TimelineRowProps {
  bar: TimelineBar;
  timeline: RunTimeline;
  runId: string;
}

/**
 * One invocation's row: its name (indented by nesting), then its bar on the run's time axis with a
 * mark for each note the user sent it. The bar is a button: focus or hover shows the details, Enter or a click keeps them shown, Escape hides them.
 */
function TimelineRowComponent({ bar, timeline, runId }: TimelineRowProps) {
  const [pinned, setPinned] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const detailsId = `timeline-${runId}-${bar.id}`;
  const queueStart = bar.queuedAt === undefined ? undefined : timelinePercent(timeline, bar.queuedAt);
  const queueEnd = timelinePercent(timeline, bar.start ?? timeline.horizon);
  const left = bar.start === undefined ? queueEnd : timelinePercent(timeline, bar.start);
  const right = bar.start === undefined ? queueEnd : timelinePercent(timeline, bar.end ?? timeline.horizon);
  const status = t(statusWords[bar.status]);
  const name = bar.depth === 0 && bar.label !== 'root' ? t('sidepanel_timeline_root', bar.label) : bar.label;
  return (
    <li class={`timeline-row${pinned ? ' is-pinned' : ''}${dismissed ? ' is-dismissed' : ''}`} data-bar-id={bar.id} data-status={bar.status} style={{ '--depth': bar.depth }}>
      <span class="timeline-label" title={bar.title}>
        <span class={`timeline-mark status-${bar.status}`} aria-hidden="true">{statusMarks[bar.status]}</span>
        <span class="timeline-name">{name}</span>
      </span>
      <div class="timeline-track">
        {queueStart !== undefined && queueEnd > queueStart && (
          <span class="timeline-queue" aria-hidden="true" style={{ left: `${queueStart}%`, width: `${queueEnd - queueStart}%` }} />
        )}
        <button
          type="button"
          class={`timeline-bar bar-${bar.status}`}
          style={{ left: `${left}%`, width: `${right - left}%` }}
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
        <div class="timeline-details" id={detailsId} role="tooltip">
          <strong>
            {name} — {status}
          </strong>
          {bar.title && <span>{bar.title}</span>}
          {barDetails(bar, timeline).map((line) => (
            <span key={line}>{line}</span>
          ))}
          {bar.notes?.map((note) => (
            <span key={note.id}>{noteLabel(note, timeline)}</span>
          ))}
        </div>
        {bar.notes && <TimelineNoteMarks notes={bar.notes} timeline={timeline} />}
      </div>
    </li>
  );
}

/** Re-renders when its bar or the time axis changes. */
export const TimelineRow = memo(
  TimelineRowComponent,
  (before, after) =>
    before.runId === after.runId &&
    before.timeline.origin === after.timeline.origin &&
    before.timeline.horizon === after.timeline.horizon &&
    JSON.stringify(before.bar) === JSON.stringify(after.bar),
);
