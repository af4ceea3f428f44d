import type { AgentTaskRecord } from '../../records/task';
import { runsText } from '../cadence-text';
import { t } from '../ui-text';

/**
 * Why a task ran this turn (issue 25 item 4): its cadence, the side panel's Run button, or the
 * agent that delegated it (the writer, or a helper handing work on, named by its task).
 */
export function taskReasonText(task: AgentTaskRecord, delegatedBy: string | undefined): string {
  if (task.startedBy === 'cadence') return t('sidepanel_started_by_cadence', runsText(task.cadence ?? 'when asked'));
  if (task.startedBy === 'user') return t('sidepanel_started_by_user');
  return delegatedBy !== undefined ? t('sidepanel_started_by_agent', delegatedBy) : t('sidepanel_started_by_root');
}

export function TaskReason({ task, delegatedBy }: { task: AgentTaskRecord; delegatedBy?: string }) {
  return (
    <span class="task-reason" data-started-by={task.startedBy ?? 'agent'}>
      {taskReasonText(task, delegatedBy)}
    </span>
  );
}
