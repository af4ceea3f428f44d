import { t } from '../ui-text';
import { formatOffset } from './format';
import { timelineOffset, type RunTimeline } from './run-timeline-model';
import { quotedNote, type TimelineNote } from './timeline-notes';

/** A waiting note and one in a request have marks of their own, so the state never rests on colour alone. */
export const noteMarks = { waiting: '◇', applied: '◆' } as const;

const stateOf = (note: TimelineNote): keyof typeof noteMarks => (note.appliedAt === undefined ? 'waiting' : 'applied');

/** What a note's mark says: when it was sent (from the run's start), whether and at which round it went in. */
export function noteLabel(note: TimelineNote, timeline: RunTimeline): string {
  const sent = formatOffset(note.sentAt - timeline.origin);
  const text = quotedNote(note.text);
  if (note.appliedAt === undefined) return t('sidepanel_timeline_note_waiting', sent, text);
  if (note.appliedRound === undefined) return t('sidepanel_timeline_note_applied_unnumbered', sent, text);
  return t('sidepanel_timeline_note_applied', sent, note.appliedRound, text);
}

/**
 * The notes sent to one invocation, each a mark on its track at the moment it was sent. Each mark
 * carries its label (and a tooltip for the pointer); the bar's details list the same lines, so a
 * keyboard reaches them through the bar.
 */
export function TimelineNoteMarks({ notes, timeline }: { notes: readonly TimelineNote[]; timeline: RunTimeline }) {
  return (
    <>
      {notes.map((note) => {
        const label = noteLabel(note, timeline);
        const state = stateOf(note);
        return (
          <span key={note.id} class={`timeline-note note-${state}`} data-note-id={note.id} data-applied={state === 'applied'} role="img" aria-label={label} title={label} style={{ '--at': timelineOffset(timeline, note.sentAt) }}>
            {noteMarks[state]}
          </span>
        );
      })}
    </>
  );
}

/** The legend's entries for the note marks the timeline shows. */
export function NoteLegendEntries({ timeline }: { timeline: RunTimeline }) {
  const states = new Set(timeline.bars.flatMap((bar) => (bar.notes ?? []).map(stateOf)));
  return (
    <>
      {states.has('waiting') && (
        <li>
          <span class="timeline-note-sample" aria-hidden="true">{noteMarks.waiting}</span> {t('sidepanel_timeline_note_legend_waiting')}
        </li>
      )}
      {states.has('applied') && (
        <li>
          <span class="timeline-note-sample" aria-hidden="true">{noteMarks.applied}</span> {t('sidepanel_timeline_note_legend_applied')}
        </li>
      )}
    </>
  );
}
