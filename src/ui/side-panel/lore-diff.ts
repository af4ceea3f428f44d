import type { JournalEvent, JournalEventOfType } from '../../records/journal';
import type { LoreProposalInput } from '../../tools/lore-books';

/** One line of a diff: kept, removed (the entry as it was) or added (the proposal). */
export interface DiffLine {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/**
 * A line diff in linear time: the lines both share at the start and at the end are kept, the rest of
 * the old text is removed and the rest of the new one added. Enough to show what a lore proposal
 * changes in one entry, without a quadratic alignment over a long text.
 */
export function lineDiff(before: string, after: string): DiffLine[] {
  const old = before === '' ? [] : before.split('\n');
  const next = after === '' ? [] : after.split('\n');
  let start = 0;
  while (start < old.length && start < next.length && old[start] === next[start]) start += 1;
  let end = 0;
  while (end < old.length - start && end < next.length - start && old[old.length - 1 - end] === next[next.length - 1 - end]) end += 1;
  return [
    ...old.slice(0, start).map((text): DiffLine => ({ kind: 'same', text })),
    ...old.slice(start, old.length - end).map((text): DiffLine => ({ kind: 'removed', text })),
    ...next.slice(start, next.length - end).map((text): DiffLine => ({ kind: 'added', text })),
    ...next.slice(next.length - end).map((text): DiffLine => ({ kind: 'same', text })),
  ];
}

/** A lore proposal as the side panel shows it, with its decision once made. */
export interface LoreProposalView extends LoreProposalInput {
  proposalId: string;
  /** The helper that proposed it (its task name). */
  by: string;
  end?: { state: 'applied' | 'discarded'; uid?: number; created?: boolean };
}

/** The run's lore proposals, oldest first, read from its journal. */
export function loreProposalsOf(journal: readonly JournalEvent[]): LoreProposalView[] {
  const ends = new Map<string, JournalEventOfType<'lore-proposal-end'>['data']>();
  for (const event of journal) if (event.type === 'lore-proposal-end' && event.data.proposalId) ends.set(event.data.proposalId, event.data);
  const proposals: LoreProposalView[] = [];
  for (const event of journal) {
    if (event.type !== 'lore-proposal') continue;
    const data = event.data;
    if (!data.proposalId || !data.book) continue;
    const end = ends.get(data.proposalId);
    proposals.push({
      proposalId: data.proposalId,
      by: data.workspaceKey ?? 'writer',
      book: data.book,
      ...(data.uid !== undefined ? { uid: data.uid } : {}),
      keys: data.keys ?? [],
      content: data.content ?? '',
      reason: data.reason ?? '',
      ...(data.before ? { before: { keys: data.before.keys ?? [], content: data.before.content ?? '', title: data.before.title ?? '' } } : {}),
      ...(end ? { end: { state: end.state === 'applied' ? 'applied' : 'discarded', ...(end.uid !== undefined ? { uid: end.uid } : {}), ...(end.created !== undefined ? { created: end.created } : {}) } } : {}),
    });
  }
  return proposals;
}
