import { computed, effect, type ReadonlySignal } from '@preact/signals';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import type { JournalEvent } from '../../records/journal';
import type { AgentRun } from '../../records/run';
import type { AgentTaskRecord } from '../../records/task';
import { t } from '../ui-text';
import { formatOffset } from './format';
import { buildRunTimeline, timelineOffset, withRootName, type TimelineStatus } from './run-timeline-model';
import { statusMarks, statusWords, TimelineRow } from './timeline-row';
import { NoteLegendEntries } from './timeline-note-marks';
import { MoreRows, useShownRows } from './shown-rows';
import { useClockSignal, type PanelClock } from './task-clock';

export interface RunTimelineProps {
  run: AgentRun;
  tasks: AgentTaskRecord[];
  journal: JournalEvent[];
  /** The panel's clock (or a fixed time): while the run works, the right edge follows it. */
  now: PanelClock;
  /** The root agent's name for the user; its profile id when absent. */
  rootName?: string;
}

/** The axis's right-hand label: the run's length so far. */
function AxisEnd({ horizon, origin }: { horizon: ReadonlySignal<number>; origin: number }) {
  return <span>{formatOffset(horizon.value - origin)}</span>;
}

/** The axis's length in milliseconds, never 0 (the stylesheet divides by it). */
function timelineSpan(horizon: number, origin: number): number {
  return Math.max(1, horizon - origin);
}

/**
 * A run at a glance: one bar per invocation (the root, then each helper under its parent) on the
 * run's time axis, running bars growing with the clock, the notes the user sent each, and the
 * moments the reply started and ended.
 */
export function RunTimeline({ run, tasks, journal, now, rootName }: RunTimelineProps) {
  const clock = useClockSignal(now);
  const running = run.status === 'running';
  // The bars change with the records, not the clock: built at the run's start, the right edge is where the latest bar ends.
  const timeline = useMemo(() => withRootName(buildRunTimeline(run, tasks, journal, run.createdAt), rootName), [run, tasks, journal, rootName]);
  const horizon = useMemo(() => computed(() => (running ? Math.max(clock.value, timeline.horizon) : timeline.horizon)), [clock, running, timeline]);
  const plot = useRef<HTMLDivElement>(null);
  const rows = useRef<HTMLUListElement>(null);
  const { shown, showMore } = useShownRows(timeline.bars.length, rows, '.timeline-bar');
  // A tick sets one style property; the stylesheet places every bar and marker against it.
  useEffect(() => effect(() => plot.current?.style.setProperty('--timeline-span', String(timelineSpan(horizon.value, timeline.origin)))), [horizon, timeline]);
  const statuses = [...new Set<TimelineStatus>(timeline.bars.map((bar) => bar.status))];
  const { replyStart, replyEnd } = timeline;
  const headingId = `timeline-title-${run.id}`;
  return (
    <section class="run-timeline" aria-labelledby={headingId}>
      <h3 id={headingId}>{t('sidepanel_timeline_heading')}</h3>
      <p class="timeline-hint muted">{t('sidepanel_timeline_hint')}</p>
      <div class="timeline-plot" ref={plot} style={{ '--timeline-span': timelineSpan(horizon.peek(), timeline.origin) }}>
        <div class="timeline-axis" aria-hidden="true">
          <span>0s</span>
          <AxisEnd horizon={horizon} origin={timeline.origin} />
        </div>
        <div class="timeline-body">
          <ul class="timeline-rows" ref={rows}>
            {timeline.bars.slice(0, shown).map((bar) => (
              <TimelineRow key={bar.id} bar={bar} timeline={timeline} horizon={horizon} runId={run.id} />
            ))}
            {shown < timeline.bars.length && (
              <MoreRows class="timeline-more" label={t('sidepanel_timeline_more', timeline.bars.length - shown, shown, timeline.bars.length)} shown={shown} showMore={showMore} />
            )}
          </ul>
          <div class="timeline-markers" aria-hidden="true">
            {replyStart !== undefined && <span class="timeline-marker marker-reply-start" style={{ '--at': timelineOffset(timeline, replyStart) }} />}
            {replyEnd !== undefined && <span class="timeline-marker marker-reply-end" style={{ '--at': timelineOffset(timeline, replyEnd) }} />}
          </div>
        </div>
      </div>
      {replyStart !== undefined && replyEnd !== undefined && (
        <p class="timeline-reply">{t('sidepanel_timeline_reply', formatOffset(replyStart - timeline.origin), formatOffset(replyEnd - timeline.origin))}</p>
      )}
      <ul class="timeline-legend" aria-label={t('sidepanel_timeline_legend')}>
        {statuses.map((status) => (
          <li key={status}>
            <span class={`legend-swatch bar-${status}`} aria-hidden="true" />
            <span class={`timeline-mark status-${status}`} aria-hidden="true">{statusMarks[status]}</span> {t(statusWords[status])}
          </li>
        ))}
        {replyStart !== undefined && (
          <li>
            <span class="legend-line marker-reply-start" aria-hidden="true" /> {t('sidepanel_timeline_reply_start')}
          </li>
        )}
        {replyEnd !== undefined && (
          <li>
            <span class="legend-line marker-reply-end" aria-hidden="true" /> {t('sidepanel_timeline_reply_end')}
          </li>
        )}
        <NoteLegendEntries timeline={timeline} />
      </ul>
    </section>
  );
}
