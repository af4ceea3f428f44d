import { useMemo } from 'preact/hooks';
import type { JournalEvent } from '../../records/journal';
import type { AgentRun } from '../../records/run';
import type { AgentTaskRecord } from '../../records/task';
import { t } from '../ui-text';
import { formatOffset } from './format';
import { buildRunTimeline, timelinePercent, type TimelineStatus } from './run-timeline-model';
import { statusMarks, statusWords, TimelineRow } from './timeline-row';
import { NoteLegendEntries } from './timeline-note-marks';

export interface RunTimelineProps {
  run: AgentRun;
  tasks: AgentTaskRecord[];
  journal: JournalEvent[];
  now: number;
}

/**
 * A run at a glance: one bar per invocation (the root, then each helper under its parent) on the
 * run's time axis, running bars growing with the clock, the notes the user sent each, and the
 * moments the reply started and ended.
 */
export function RunTimeline({ run, tasks, journal, now }: RunTimelineProps) {
  const clock = run.status === 'running' ? now : 0;
  const timeline = useMemo(() => buildRunTimeline(run, tasks, journal, clock), [run, tasks, journal, clock]);
  const statuses = [...new Set<TimelineStatus>(timeline.bars.map((bar) => bar.status))];
  const { replyStart, replyEnd } = timeline;
  const headingId = `timeline-title-${run.id}`;
  return (
    <section class="run-timeline" aria-labelledby={headingId}>
      <h3 id={headingId}>{t('sidepanel_timeline_heading')}</h3>
      <p class="timeline-hint muted">{t('sidepanel_timeline_hint')}</p>
      <div class="timeline-plot">
        <div class="timeline-axis" aria-hidden="true">
          <span>0s</span>
          <span>{formatOffset(timeline.horizon - timeline.origin)}</span>
        </div>
        <div class="timeline-body">
          <ul class="timeline-rows">
            {timeline.bars.map((bar) => (
              <TimelineRow key={bar.id} bar={bar} timeline={timeline} runId={run.id} />
            ))}
          </ul>
          <div class="timeline-markers" aria-hidden="true">
            {replyStart !== undefined && <span class="timeline-marker marker-reply-start" style={{ left: `${timelinePercent(timeline, replyStart)}%` }} />}
            {replyEnd !== undefined && <span class="timeline-marker marker-reply-end" style={{ left: `${timelinePercent(timeline, replyEnd)}%` }} />}
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
