import type { ReadonlySignal } from '@preact/signals';
import { useMemo, useRef } from 'preact/hooks';
import type { AgentTaskRecord } from '../../records/task';
import type { RunStore } from '../../store/run-store';
import { t } from '../ui-text';
import { TaskRow } from './task-row';
import { buildTaskTree, type TaskBranch } from './task-tree';
import { MoreRows, useShownRows } from './shown-rows';
import { useClockSignal, type PanelClock } from './task-clock';

export interface TaskListProps {
  tasks: AgentTaskRecord[];
  store: RunStore;
  /** The panel's clock (or a fixed time): running tasks' elapsed times read it. */
  now: PanelClock;
  onCancel(taskId: string): void;
}

interface BranchesProps extends Pick<TaskListProps, 'store' | 'onCancel'> {
  branches: TaskBranch[];
  clock: ReadonlySignal<number>;
  /** The tasks drawn so far; a task's own tasks come after it, so a drawn task's parent is drawn. */
  drawn: ReadonlySet<string>;
  delegatedBy?: string;
}

/** Tasks as nested lists: each task's own tasks (nested delegation) in a list inside its item. */
function TaskBranches({ branches, store, clock, onCancel, drawn, delegatedBy }: BranchesProps) {
  return (
    <>
      {branches.map(({ task, children }) => {
        if (!drawn.has(task.id)) return null;
        const drawnChildren = children.some((child) => drawn.has(child.task.id));
        return (
          <TaskRow key={task.id} task={task} store={store} clock={clock} onCancel={onCancel} delegatedBy={delegatedBy}>
            {drawnChildren && (
              <ul class="task-subtasks" aria-label={t('sidepanel_subtasks_label', task.workspaceKey)}>
                <TaskBranches branches={children} store={store} clock={clock} onCancel={onCancel} drawn={drawn} delegatedBy={task.workspaceKey} />
              </ul>
            )}
          </TaskRow>
        );
      })}
    </>
  );
}

/** Task ids in the order the tree shows them, a task before its own tasks. */
function shownOrder(branches: readonly TaskBranch[], into: string[] = []): string[] {
  for (const branch of branches) {
    into.push(branch.task.id);
    shownOrder(branch.children, into);
  }
  return into;
}

/**
 * The delegated tasks of one run as a tree, each level in the order its tasks were delegated. A page
 * of rows is drawn at first, more as the list's end nears the viewport or the user asks for them.
 */
export function TaskList({ tasks, store, now, onCancel }: TaskListProps) {
  const clock = useClockSignal(now);
  const list = useRef<HTMLUListElement>(null);
  const tree = useMemo(() => buildTaskTree(tasks), [tasks]);
  const order = useMemo(() => shownOrder(tree), [tree]);
  const { shown, showMore } = useShownRows(order.length, list, '.task-toggle');
  const drawn = useMemo(() => new Set(order.slice(0, shown)), [order, shown]);
  return (
    <section class="task-list" aria-label={t('sidepanel_tasks_heading', tasks.length)}>
      <h3>{t('sidepanel_tasks_heading', tasks.length)}</h3>
      {tasks.length === 0 ? (
        <p class="muted">{t('sidepanel_no_tasks')}</p>
      ) : (
        <ul ref={list}>
          <TaskBranches branches={tree} store={store} clock={clock} onCancel={onCancel} drawn={drawn} />
          {shown < order.length && <MoreRows class="task-more" label={t('sidepanel_tasks_more', order.length - shown, shown, order.length)} shown={shown} showMore={showMore} />}
        </ul>
      )}
    </section>
  );
}
