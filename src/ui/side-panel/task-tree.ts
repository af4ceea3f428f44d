import type { AgentTaskRecord } from '../../records/task';

/** One task and the tasks it handed on (nested delegation), in the order they were delegated. */
export interface TaskBranch {
  task: AgentTaskRecord;
  children: TaskBranch[];
}

/**
 * The run's tasks as a tree: the root's tasks at the top, each task's own tasks under it. A task
 * whose parent is not among `tasks` (a record not loaded yet) shows at the top rather than nowhere.
 */
export function buildTaskTree(tasks: readonly AgentTaskRecord[]): TaskBranch[] {
  const branches: TaskBranch[] = tasks.map((task) => ({ task, children: [] }));
  const byInvocation = new Map<string, TaskBranch>();
  for (const branch of branches) if (!byInvocation.has(branch.task.childInvocationId)) byInvocation.set(branch.task.childInvocationId, branch);
  const top: TaskBranch[] = [];
  for (const branch of branches) {
    const parent = byInvocation.get(branch.task.parentInvocationId);
    if (parent && parent !== branch) parent.children.push(branch);
    else top.push(branch);
  }
  return top;
}
