import type { GuidanceNote } from '../../records/guidance-note';
import type { JournalEvent } from '../../records/journal';

/** A note the user sent, as the timeline marks it on the bar of the invocation it was for. */
export interface TimelineNote {
  id: string;
  sentAt: number;
  /** Undefined while it waits for the invocation's next model call. */
  appliedAt?: number;
  /** The model call whose request carried it; undefined for a note applied before rounds were recorded. */
  appliedRound?: number;
  text: string;
}

/** The bar a note belongs on: its task's, or the root's for a note to the writer. */
function barIdOf(note: GuidanceNote): string {
  return note.taskId ?? 'root';
}

/**
 * The run's notes by the bar they belong on, in the order sent. A note applied before its round was
 * stored on it takes the round from its `guidance-applied` event.
 */
export function timelineNotesByBar(notes: readonly GuidanceNote[], journal: readonly JournalEvent[]): Map<string, TimelineNote[]> {
  const byBar = new Map<string, TimelineNote[]>();
  if (notes.length === 0) return byBar;
  const journaledRounds = new Map<string, number>();
  for (const event of journal) {
    if (event.type !== 'guidance-applied') continue;
    const { noteId, round } = event.data;
    if (noteId !== undefined && round !== undefined) journaledRounds.set(noteId, round);
  }
  for (const note of notes) {
    const appliedRound = note.appliedAt === undefined ? undefined : (note.appliedRound ?? journaledRounds.get(note.id));
    const entry: TimelineNote = {
      id: note.id,
      sentAt: note.sentAt,
      ...(note.appliedAt !== undefined ? { appliedAt: note.appliedAt } : {}),
      ...(appliedRound !== undefined ? { appliedRound } : {}),
      text: note.text,
    };
    const barId = barIdOf(note);
    byBar.set(barId, [...(byBar.get(barId) ?? []), entry]);
  }
  return byBar;
}

/** The longest part of a note a mark's label quotes; the side panel's note list shows it whole. */
const QUOTED_CHARS = 80;

/** A note's opening for a label: its whitespace folded, cut at `QUOTED_CHARS` with an ellipsis. */
export function quotedNote(text: string): string {
  const folded = text.split(/\s+/).filter((word) => word !== '').join(' ');
  return folded.length <= QUOTED_CHARS ? folded : `${folded.slice(0, QUOTED_CHARS - 1).trimEnd()}…`;
}
