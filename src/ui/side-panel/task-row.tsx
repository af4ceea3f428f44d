import type { ComponentChildren } from 'preact';
import { memo } from 'preact/compat';
import { useState } from 'preact/hooks';
import type { AgentTaskRecord } from '../../records/task';
import type { RunStore } from '../../store/run-store';
import { countText } from '../../count-text';
import { t } from '../ui-text';
import { formatDuration, isTaskCancellable, taskDisplayStatus, taskElapsed } from './format';
import { TaskLookups } from './lookup-list';
import { ReviewMark } from './review-queue';
import { StatusBadge } from './status-badge';
import { TaskRanWithLine } from './task-ran-with';
import { TaskResultView } from './task-result';
import { TaskReason } from './task-reason';

export interface TaskRowProps {
  task: AgentTaskRecord;
  store: RunStore;
  /** Current time, for the elapsed time of running tasks. */
  now: number;
  onCancel(taskId: string): void;
  /** The list of tasks this one handed on (nested delegation), inside its item. */
  children?: ComponentChildren;
  /** The task whose helper delegated this one (nested delegation); absent: the writer did (why it ran). */
  delegatedBy?: string;
}

/** One delegated task: agent, title, status, time, budget use, tokens; opens to its result. */
function TaskRowComponent({ task, store, now, onCancel, children, delegatedBy }: TaskRowProps) {
  const [open, setOpen] = useState(false);
  const status = taskDisplayStatus(task);
  const elapsed = taskElapsed(task, now);
  const detailsId = `task-details-${task.id}`;
  return (
    <li class={`task-row task-${status}`} data-task-id={task.id} data-status={status}>
      <div class="task-head">
        {/* Its name is what it shows, agent and title (WCAG 2.5.3); aria-expanded says it opens. */}
        <button
          type="button"
          class="task-toggle"
          aria-expanded={open}
          aria-controls={detailsId}
          onClick={() => setOpen(!open)}
        >
          <span class="disclosure" aria-hidden="true">{open ? '▾' : '▸'}</span>
          <span class="task-agent">{task.workspaceKey}</span>
          <span class="task-title">{task.task.title}</span>
        </button>
        <StatusBadge status={status} />
        {task.review && <ReviewMark review={task.review} />}
        {isTaskCancellable(task) && (
          <button
            type="button"
            class="small-button danger"
            aria-label={t('sidepanel_cancel_task_label', task.task.title)}
            onClick={() => onCancel(task.id)}
          >
            {t('sidepanel_cancel')}
          </button>
        )}
      </div>
      <div class="task-meta">
        <TaskReason task={task} delegatedBy={delegatedBy} />
        {elapsed !== undefined && <span>{t('sidepanel_elapsed', formatDuration(elapsed))}</span>}
        <span>{t('sidepanel_rounds', task.usage.rounds, task.budget.maxRounds)}</span>
        <span>{t('sidepanel_tool_calls', task.usage.toolCalls, task.budget.maxToolCalls)}</span>
        <span>
          {countText('sidepanel_tokens', task.usage.totalTokens)}
          {task.usage.estimated === true && <em class="cost-estimated"> ({t('sidepanel_cost_estimated')})</em>}
        </span>
      </div>
      {task.ranWith && <TaskRanWithLine ranWith={task.ranWith} />}
      {open && (
        <div id={detailsId}>
          <TaskLookups store={store} task={task} />
          <TaskResultView store={store} task={task} />
        </div>
      )}
      {children}
    </li>
  );
}

/** Re-renders only when its own task record (or, while it runs, the clock) changes, or it holds sub-tasks. */
export const TaskRow = memo(TaskRowComponent, (before, after) => {
  const ticking = after.task.status === 'running';
  return before.task === after.task && before.store === after.store && before.onCancel === after.onCancel && before.children === after.children && before.delegatedBy === after.delegatedBy && (!ticking || before.now === after.now);
});
