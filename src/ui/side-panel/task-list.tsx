import type { AgentTaskRecord } from '../../records/task';
import type { RunStore } from '../../store/run-store';
import { t } from '../ui-text';
import { TaskRow } from './task-row';
import { buildTaskTree, type TaskBranch } from './task-tree';

export interface TaskListProps {
  tasks: AgentTaskRecord[];
  store: RunStore;
  now: number;
  onCancel(taskId: string): void;
}

/** Tasks as nested lists: each task's own tasks (nested delegation) in a list inside its item. */
function TaskBranches({ branches, store, now, onCancel, delegatedBy }: Omit<TaskListProps, 'tasks'> & { branches: TaskBranch[]; delegatedBy?: string }) {
  return (
    <>
      {branches.map(({ task, children }) => (
        <TaskRow key={task.id} task={task} store={store} now={now} onCancel={onCancel} delegatedBy={delegatedBy}>
          {children.length > 0 && (
            <ul class="task-subtasks" aria-label={t('sidepanel_subtasks_label', task.workspaceKey)}>
              <TaskBranches branches={children} store={store} now={now} onCancel={onCancel} delegatedBy={task.workspaceKey} />
            </ul>
          )}
        </TaskRow>
      ))}
    </>
  );
}

/** The delegated tasks of one run as a tree, each level in the order its tasks were delegated. */
export function TaskList({ tasks, store, now, onCancel }: TaskListProps) {
  return (
    <section class="task-list" aria-label={t('sidepanel_tasks_heading', tasks.length)}>
      <h3>{t('sidepanel_tasks_heading', tasks.length)}</h3>
      {tasks.length === 0 ? (
        <p class="muted">{t('sidepanel_no_tasks')}</p>
      ) : (
        <ul>
          <TaskBranches branches={buildTaskTree(tasks)} store={store} now={now} onCancel={onCancel} />
        </ul>
      )}
    </section>
  );
}
