import { memo } from 'preact/compat';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { AgentRun } from '../../records/run';
import { countText } from '../../count-text';
import { t } from '../ui-text';
import { formatCount, formatDuration, formatTime } from './format';
import { runDisplayStatus, StatusBadge } from './status-badge';

export interface HistoryRowProps {
  run: AgentRun;
  showOrigin: boolean;
  isOpen: boolean;
  onOpen(runId: string): void;
  onDelete(runId: string): void;
}

/**
 * A run's calls, tokens and time once it ended. The stored run's totals are written when it ends,
 * so a running run says so rather than "0 calls" (its live cost is in the run view's cost line).
 */
function historyTotal(run: AgentRun): string {
  if (run.status === 'running') return t('sidepanel_history_running');
  const total = countText('sidepanel_history_total', run.usage.rounds, formatCount(run.usage.promptTokens), formatCount(run.usage.completionTokens));
  return run.endedAt === undefined ? total : `${total} · ${formatDuration(run.endedAt - run.createdAt)}`;
}

/**
 * Delete asks in place ("Delete for good?" / Keep) rather than with `confirm()`, which a side panel
 * may not show; focus moves to the question and back.
 */
function HistoryRowComponent({ run, showOrigin, isOpen, onOpen, onDelete }: HistoryRowProps) {
  const [confirming, setConfirming] = useState(false);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);
  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
    else if (wasConfirming.current) deleteButton.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);
  const title = run.title || t('sidepanel_untitled');
  return (
    <li class={`history-row${isOpen ? ' is-open' : ''}`} data-run-id={run.id}>
      {/* No aria-label: the visible title, time and cost are the button's name (WCAG 2.5.3). */}
      <button type="button" class="history-open" aria-current={isOpen ? 'true' : undefined} onClick={() => onOpen(run.id)}>
        <span class="visually-hidden">{t('sidepanel_open_run_prefix')} </span>
        <span class="history-title">{title}</span>
        <span class="history-meta">
          {formatTime(run.createdAt)}
          {showOrigin && ` · ${run.origin}`}
        </span>
        <span class="history-meta history-total">{historyTotal(run)}</span>
      </button>
      <StatusBadge status={runDisplayStatus(run)} />
      {confirming ? (
        <span class="confirm-delete" role="group" aria-label={t('sidepanel_delete_confirm')}>
          <button type="button" ref={confirmButton} class="small-button danger" aria-label={t('sidepanel_delete_confirm_label', title)} onClick={() => onDelete(run.id)}>
            {t('sidepanel_delete_confirm_yes')}
          </button>
          <button type="button" class="small-button" onClick={() => setConfirming(false)}>
            {t('sidepanel_delete_keep')}
          </button>
        </span>
      ) : (
        <button type="button" ref={deleteButton} class="small-button" aria-label={t('sidepanel_delete_run_label', title)} onClick={() => setConfirming(true)}>
          {t('sidepanel_delete_run')}
        </button>
      )}
    </li>
  );
}

/** One run in the history list; re-renders only when its own record changes. */
export const HistoryRow = memo(HistoryRowComponent);
