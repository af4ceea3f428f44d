import type { AgentTaskRecord } from '../../records/task';
import type { RunStore } from '../../store/run-store';
import { t } from '../ui-text';
import { TaskRow } from './task-row';

export interface TaskListProps {
  tasks: AgentTaskRecord[];
  store: RunStore;
  now: number;
  onCancel(taskId: string): void;
}

/** The delegated tasks of one run, in the order they were delegated. */
export function TaskList({ tasks, store, now, onCancel }: TaskListProps) {
  return (
    <section class="task-list" aria-label={t('sidepanel_tasks_heading', tasks.length)}>
      <h3>{t('sidepanel_tasks_heading', tasks.length)}</h3>
      {tasks.length === 0 ? (
        <p class="muted">{t('sidepanel_no_tasks')}</p>
      ) : (
        <ul>
          {tasks.map((task) => (
            <TaskRow key={task.id} task={task} store={store} now={now} onCancel={onCancel} />
          ))}
        </ul>
      )}
    </section>
  );
}
