import { memo } from 'preact/compat';
import type { AgentRun } from '../../records/run';
import { t } from '../ui-text';
import { formatTime } from './format';
import { StatusBadge } from './status-badge';

export interface HistoryRowProps {
  run: AgentRun;
  showOrigin: boolean;
  isOpen: boolean;
  onOpen(runId: string): void;
  onDelete(runId: string): void;
}

function HistoryRowComponent({ run, showOrigin, isOpen, onOpen, onDelete }: HistoryRowProps) {
  const title = run.title || t('sidepanel_untitled');
  return (
    <li class={`history-row${isOpen ? ' is-open' : ''}`} data-run-id={run.id}>
      <button type="button" class="history-open" aria-label={t('sidepanel_open_run_label', title)} aria-current={isOpen ? 'true' : undefined} onClick={() => onOpen(run.id)}>
        <span class="history-title">{title}</span>
        <span class="history-meta">
          {formatTime(run.createdAt)}
          {showOrigin && ` · ${run.origin}`}
        </span>
      </button>
      <StatusBadge status={run.status} />
      <button type="button" class="small-button" aria-label={t('sidepanel_delete_run_label', title)} onClick={() => onDelete(run.id)}>
        {t('sidepanel_delete_run')}
      </button>
    </li>
  );
}

/** One run in the history list; re-renders only when its own record changes. */
export const HistoryRow = memo(HistoryRowComponent);
