import { ModelBehaviorError } from '../errors';
import type { AgentInvocation } from '../records/invocation';
import type { AgentTaskRecord } from '../records/task';
import { emptyUsage } from '../records/usage';
import type { AgentProfile } from '../settings/schema';
import type { DelegateRequest, ToolCallKey } from '../tools/tool-definition';
import type { WorkspaceEntry, WorkspaceView } from '../workspace/workspace-view';
import { narrowBudget } from './budget';
import { conversationMessages } from '../hosts/chat-text';
import { renderChildSystemMessage, renderTaskBriefing, BRIEFING_LIMITS } from './child-context';
import type { RunSession } from './run-session';
import { childWorkspaceView } from './task-tree';

/** The task's name: the target agent's id, then `-002`, `-003` for repeats in one run. */
export function nextWorkspaceKey(agentId: string, tasks: Iterable<AgentTaskRecord>): string {
  const taken = new Set([...tasks].map((task) => task.workspaceKey));
  if (!taken.has(agentId)) return agentId;
  for (let number = 2; ; number += 1) {
    const key = `${agentId}-${String(number).padStart(3, '0')}`;
    if (!taken.has(key)) return key;
  }
}

/** Every file and folder of a view, breadth first, up to `limit` entries (for the briefing). */
export async function listView(view: WorkspaceView, limit = BRIEFING_LIMITS.maxListedFiles * 2): Promise<WorkspaceEntry[]> {
  const entries: WorkspaceEntry[] = [];
  const folders = [''];
  while (folders.length > 0 && entries.length < limit) {
    const folder = folders.shift() as string;
    for (const entry of await view.list(folder === '' ? undefined : folder)) {
      entries.push(entry);
      if (entry.kind === 'folder') folders.push(entry.path);
    }
  }
  return entries.slice(0, limit);
}

export interface CreateTaskInput {
  session: RunSession;
  caller: AgentInvocation;
  target: AgentProfile;
  request: DelegateRequest;
  call: ToolCallKey;
  /** Why it runs, when not because `caller` asked (see the task record's `startedBy`). */
  startedBy?: { by: 'cadence' | 'user'; cadence?: string };
}

function taskLimitReached(maxTasks: number): ModelBehaviorError {
  return new ModelBehaviorError(
    'task-limit-reached',
    `This run already has its ${maxTasks} delegated tasks, the most it may have. Use the results you have (agent_await) or do the work yourself.`,
  );
}

/**
 * Takes the task's place in the run in one synchronous step: its name (workspace key) and its place
 * under `maxTasksPerRun`. Two invocations delegating at the same moment can therefore never get the
 * same name nor pass the cap together, whatever the awaits that follow.
 */
function reserveTask(input: CreateTaskInput): AgentTaskRecord {
  const { session, caller, target, request, call, startedBy } = input;
  const maxTasks = session.environment.defaults.maxTasksPerRun;
  if (session.tasks.size >= maxTasks) throw taskLimitReached(maxTasks);
  const now = session.now();
  const task: AgentTaskRecord = {
    id: session.environment.newId(),
    runId: session.run.id,
    parentInvocationId: caller.id,
    childInvocationId: session.environment.newId(),
    targetProfileId: target.id,
    workspaceKey: nextWorkspaceKey(target.id, session.tasks.values()),
    continuation: 'returnToParent',
    status: 'queued',
    task: request.task,
    budget: narrowBudget(target, request.budget),
    toolCallId: call.callId,
    toolCallTurn: call.turn,
    ...(startedBy ? { startedBy: startedBy.by, ...(startedBy.cadence ? { cadence: startedBy.cadence } : {}) } : {}),
    createdAt: now,
    usage: emptyUsage(),
  };
  session.tasks.set(task.id, task);
  return task;
}

/**
 * Makes a delegated task and its child invocation (system message and briefing ready), queued, and
 * stages them to be stored with the caller's tool result. The budget can only narrow the target
 * profile's; the run's task cap is enforced here.
 */
export async function createTask(input: CreateTaskInput): Promise<AgentTaskRecord> {
  const { session, caller, target, request } = input;
  const reserved = reserveTask(input);
  const { workspaceKey, budget, childInvocationId: childId } = reserved;
  const view = childWorkspaceView(session, { workspaceKey, parentInvocationId: caller.id, targetProfileId: target.id });
  const recentCount = target.context.recentChatMessages;
  const recentChat = recentCount > 0 ? conversationMessages(session.snapshot.messages).slice(-recentCount) : undefined;
  const briefing = renderTaskBriefing({ task: request.task, workspaceEntries: await listView(view), recentChat });
  const child: AgentInvocation = {
    id: childId,
    runId: session.run.id,
    parentInvocationId: caller.id,
    profileId: target.id,
    kind: 'subagent',
    status: 'created',
    exitPolicy: 'taskReturnRequired',
    budget,
    usage: emptyUsage(),
    providerSessionId: `${session.run.id}:${childId}`,
    messages: [
      { role: 'system', content: renderChildSystemMessage(target) },
      { role: 'user', content: briefing },
    ],
    depth: caller.depth + 1,
    createdAt: reserved.createdAt,
  };
  // Stored with the caller's tool result (one step for all the delegate calls of a turn, see
  // tool-execution.ts), the task record as it stands then: a spend cap may cancel it meanwhile.
  session.creations.stage(caller.id, child, reserved.id);
  const task = session.tasks.get(reserved.id) ?? reserved;
  session.journal.note('task-queued', {
    invocationId: caller.id,
    taskId: task.id,
    data: { agentId: target.id, workspaceKey, title: request.task.title, budget },
  });
  return task;
}
