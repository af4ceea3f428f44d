import type { RunStatus } from '../../records/run';
import { t, type UiMessageKey } from '../ui-text';
import type { TaskDisplayStatus } from './format';

/** The word for each status of a task or a run, wherever the panel names one. */
export const statusLabels: Record<TaskDisplayStatus | RunStatus, UiMessageKey> = {
  queued: 'sidepanel_status_queued',
  running: 'sidepanel_status_running',
  completed: 'sidepanel_status_completed',
  partial: 'sidepanel_status_partial',
  failed: 'sidepanel_status_failed',
  cancelled: 'sidepanel_status_cancelled',
  interrupted: 'sidepanel_status_interrupted',
};

/** A coloured status word; the colour is never the only signal. */
export function StatusBadge({ status }: { status: TaskDisplayStatus | RunStatus }) {
  return <span class={`status-badge status-${status}`}>{t(statusLabels[status])}</span>;
}
