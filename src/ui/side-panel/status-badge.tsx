import type { AgentRun, RunStatus } from '../../records/run';
import { t, type UiMessageKey } from '../ui-text';
import type { TaskDisplayStatus } from './format';

/**
 * How the panel shows a run: its stored status, except that a run which handed the turn back to the
 * page's own model (DESIGN.md §13) is "passed to the page", not "failed": the user got a reply.
 */
export type RunDisplayStatus = RunStatus | 'passed-through';

export function runDisplayStatus(run: Pick<AgentRun, 'status' | 'fallback'>): RunDisplayStatus {
  return run.fallback ? 'passed-through' : run.status;
}

/** The word for each status of a task or a run, wherever the panel names one. */
export const statusLabels: Record<TaskDisplayStatus | RunDisplayStatus, UiMessageKey> = {
  queued: 'sidepanel_status_queued',
  running: 'sidepanel_status_running',
  completed: 'sidepanel_status_completed',
  partial: 'sidepanel_status_partial',
  failed: 'sidepanel_status_failed',
  cancelled: 'sidepanel_status_cancelled',
  interrupted: 'sidepanel_status_interrupted',
  'passed-through': 'sidepanel_status_passed_through',
};

/** A coloured status word; the colour is never the only signal. */
export function StatusBadge({ status }: { status: TaskDisplayStatus | RunDisplayStatus }) {
  return <span class={`status-badge status-${status}`}>{t(statusLabels[status])}</span>;
}
