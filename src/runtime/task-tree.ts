import type { AgentTaskRecord } from '../records/task';
import { createChildWorkspaceView, type ChildScope } from '../workspace/child-view';
import type { WorkspaceView } from '../workspace/workspace-view';
import type { RunSession } from './run-session';
import { CANCEL_REASONS, type CancelReason } from './cancel-reasons';

/**
 * Nested delegation: a run's tasks form a tree (the root's tasks, the tasks those children started,
 * and so on, down to `defaults.maxDepth`). This module answers where a task stands in that tree and
 * ends a subtree when the task above it ends.
 */

/** A task's place in the tree: its key, who started it, and (once it exists) its own invocation. */
export interface TaskPlacement {
  workspaceKey: string;
  parentInvocationId: string;
  childInvocationId?: string;
  /** The task's agent, whose `memory/` the view holds. */
  targetProfileId?: string;
}

function isUnfinished(task: AgentTaskRecord): boolean {
  return task.status === 'queued' || task.status === 'running';
}

/** The task whose child invocation started `task`; undefined when the root started it. */
export function parentTaskOf(session: RunSession, task: Pick<AgentTaskRecord, 'parentInvocationId'>): AgentTaskRecord | undefined {
  for (const candidate of session.tasks.values()) if (candidate.childInvocationId === task.parentInvocationId) return candidate;
  return undefined;
}

/**
 * Whose workspace view a task gets. A task the root started sees the run as DESIGN.md section 6
 * says; one level down, its parent task stands in the root's place, and under `summaries/agents/` it
 * sees only the tasks started by the same parent and the tasks it started itself.
 */
export function childScopeOf(session: RunSession, placement: TaskPlacement): ChildScope {
  const parent = parentTaskOf(session, placement);
  const memory = placement.targetProfileId === undefined ? {} : { memoryAgentId: placement.targetProfileId };
  if (!parent) return { workspaceKey: placement.workspaceKey, ...memory };
  const visibleAgents = (): ReadonlySet<string> => {
    const keys = new Set<string>();
    for (const task of session.tasks.values()) {
      const sibling = task.parentInvocationId === placement.parentInvocationId;
      const helper = placement.childInvocationId !== undefined && task.parentInvocationId === placement.childInvocationId;
      if ((sibling || helper) && task.workspaceKey !== placement.workspaceKey) keys.add(task.workspaceKey);
    }
    return keys;
  };
  return { workspaceKey: placement.workspaceKey, parentKey: parent.workspaceKey, visibleAgents, ...memory };
}

/** The workspace view of the task at `placement`. */
export function childWorkspaceView(session: RunSession, placement: TaskPlacement): WorkspaceView {
  return createChildWorkspaceView({ workspace: session.workspace, ...childScopeOf(session, placement) });
}

export type EndStatus = 'completed' | 'failed' | 'cancelled';

const SUBTREE_REASON: Record<EndStatus, CancelReason> = {
  completed: CANCEL_REASONS.parentCompleted,
  failed: CANCEL_REASONS.parentFailed,
  cancelled: CANCEL_REASONS.parentCancelled,
};

/** Why a task was ended because the task that gave it ended (shown in the side panel). */
export function subtreeReason(parentEnd: AgentTaskRecord['status']): CancelReason {
  return parentEnd === 'completed' || parentEnd === 'failed' || parentEnd === 'cancelled' ? SUBTREE_REASON[parentEnd] : SUBTREE_REASON.cancelled;
}

/** After a restart: a task whose parent task already ended must not start again. */
export function parentEnded(session: RunSession, task: AgentTaskRecord): AgentTaskRecord | undefined {
  const parent = parentTaskOf(session, task);
  return parent && !isUnfinished(parent) ? parent : undefined;
}
