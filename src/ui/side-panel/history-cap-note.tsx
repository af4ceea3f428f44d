import { useMemo } from 'preact/hooks';
import type { JournalEvent } from '../../records/journal';
import { t } from '../ui-text';

/** The run's history cap in MB, once the journal says it was reached. */
export function historyCapReached(journal: readonly JournalEvent[]): { capMb: string; historyMb: string } | undefined {
  for (const event of journal) {
    if (event.type !== 'history-cap-reached') continue;
    const { cap, historyBytes } = event.data;
    if (cap === undefined || historyBytes === undefined) return undefined;
    const mb = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1);
    return { capMb: mb(cap), historyMb: mb(historyBytes) };
  }
  return undefined;
}

/** Says that the run stopped delegating at the size its stored history may have, once it did. */
export function HistoryCapNote({ journal }: { journal: readonly JournalEvent[] }) {
  const reached = useMemo(() => historyCapReached(journal), [journal]);
  if (!reached) return null;
  return (
    <p class="token-cap-note" role="note">
      {t('sidepanel_history_cap_reached', reached.historyMb, reached.capMb)}
    </p>
  );
}
