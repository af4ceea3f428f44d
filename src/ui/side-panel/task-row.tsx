import type { ReadonlySignal } from '@preact/signals';
import type { ComponentChildren } from 'preact';
import { memo } from 'preact/compat';
import { useState } from 'preact/hooks';
import type { AgentTaskRecord } from '../../records/task';
import type { RunStore } from '../../store/run-store';
import { countText } from '../../count-text';
import { t } from '../ui-text';
import { isTaskCancellable, taskDisplayStatus } from './format';
import { TaskLookups } from './lookup-list';
import { ReviewMark } from './review-queue';
import { StatusBadge } from './status-badge';
import { TaskRanWithLine } from './task-ran-with';
import { TaskResultView } from './task-result';
import { TaskReason } from './task-reason';
import { TaskElapsed } from './task-clock';

export interface TaskRowProps {
  task: AgentTaskRecord;
  store: RunStore;
  /** The panel's clock: only a running task's elapsed time reads it. */
  clock: ReadonlySignal<number>;
  onCancel(taskId: string): void;
  /** The list of tasks this one handed on (nested delegation), inside its item. */
  children?: ComponentChildren;
  /** The task whose helper delegated this one (nested delegation); absent: the writer did (why it ran). */
  delegatedBy?: string;
}

/** One delegated task: agent, title, status, time, budget use, tokens; opens to its result. */
function TaskRowComponent({ task, store, clock, onCancel, children, delegatedBy }: TaskRowProps) {
  const [open, setOpen] = useState(false);
  const status = taskDisplayStatus(task);
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
      <TaskMeta task={task} clock={clock} delegatedBy={delegatedBy} />
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

/** The line under a task's head: why it ran, its time, its budget use and its tokens. */
function TaskMeta({ task, clock, delegatedBy }: { task: AgentTaskRecord; clock: ReadonlySignal<number>; delegatedBy: string | undefined }) {
  return (
    <div class="task-meta">
      <TaskReason task={task} delegatedBy={delegatedBy} />
      <TaskElapsed task={task} clock={clock} />
      <span>{t('sidepanel_rounds', task.usage.rounds, task.budget.maxRounds)}</span>
      <span>{t('sidepanel_tool_calls', task.usage.toolCalls, task.budget.maxToolCalls)}</span>
      <span>
        {countText('sidepanel_tokens', task.usage.totalTokens)}
        {task.usage.estimated === true && <em class="cost-estimated"> ({t('sidepanel_cost_estimated')})</em>}
      </span>
    </div>
  );
}

/** Re-renders only when its own task record changes, or it holds sub-tasks; a clock tick reaches only its elapsed time. */
export const TaskRow = memo(
  TaskRowComponent,
  (before, after) =>
    before.task === after.task && before.store === after.store && before.clock === after.clock && before.onCancel === after.onCancel && before.children === after.children && before.delegatedBy === after.delegatedBy,
);
