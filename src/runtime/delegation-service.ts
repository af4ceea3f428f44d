import { ModelBehaviorError } from '../errors';
import type { AgentInvocation } from '../records/invocation';
import type { AgentTaskRecord } from '../records/task';
import { awaitsReview } from '../records/task-review';
import type { AgentProfile } from '../settings/schema';
import type { AwaitAnswer, AwaitRequest, DelegateAnswer, DelegateRequest, DelegationPort, TaskView, ToolCallKey } from '../tools/tool-definition';
import { cancelTask } from './task-ending';
import { AWAIT_MAX_TIMEOUT_MS } from '../tools/agent-await';
import { createTask } from './task-creation';
import { renderEarlierForAwaitNow } from './earlier-results';
import { delegableAgents } from './invocation-policy';
import { cadenceRefusal, mayBeDelegated } from './cadence';
import type { RunSession } from './run-session';
import { delegationRefusal, waitEndings } from './limits/asking';
import { discardUnreviewed } from './task-review';
import { parentTaskOf } from './task-tree';
import { CANCEL_REASONS } from './cancel-reasons';

const ENDED: ReadonlySet<AgentTaskRecord['status']> = new Set(['completed', 'failed', 'cancelled']);

export function isEnded(task: AgentTaskRecord): boolean {
  return ENDED.has(task.status);
}

/** Ended with a capsule (completed, partial or failed); a cancelled task has none. */
export function hasResult(task: AgentTaskRecord): boolean {
  return task.status === 'completed' || task.status === 'failed';
}

/** How a task looks to the invocation that started it: by name, with its capsule once ended. */
export async function viewOf(session: RunSession, task: AgentTaskRecord): Promise<TaskView> {
  const capsule = isEnded(task) ? await session.capsuleOf(task) : undefined;
  return {
    name: task.workspaceKey,
    agentId: task.targetProfileId,
    title: task.task.title,
    status: task.status,
    capsule,
    problem: task.error?.message,
    alreadyDelivered: task.resultDeliveredAt !== undefined,
    ...(task.review ? { review: task.review } : {}),
  };
}

function listNames(tasks: readonly AgentTaskRecord[]): string {
  return tasks.length === 0 ? 'you have not delegated any' : tasks.map((task) => task.workspaceKey).join(', ');
}

/** The caller's tasks named in `names` (all of them when absent); an unknown name is a model mistake. */
function selectTasks(session: RunSession, callerId: string, names: readonly string[] | undefined): AgentTaskRecord[] {
  const mine = session.tasksOf(callerId);
  if (names === undefined) return mine;
  const unknown = names.filter((name) => !mine.some((task) => task.workspaceKey === name));
  if (unknown.length > 0) {
    throw new ModelBehaviorError(
      'task-unknown',
      `You have no task named ${unknown.map((name) => `"${name}"`).join(', ')}. Your tasks: ${listNames(mine)}.`,
    );
  }
  return mine.filter((task) => names.includes(task.workspaceKey));
}

/** Extra wait past a task's own deadline, so its timeout (and failed capsule) lands inside the await. */
const AWAIT_GRACE_MS = 5_000;

/**
 * How long an `agent.await` without `timeoutMs` waits: long enough for each selected task still
 * working to reach its own deadline (a task not yet started has its whole timeout ahead), never
 * less than `defaults.awaitTimeoutMs`, never more than the most an await may wait.
 */
export function defaultAwaitTimeoutMs(session: RunSession, tasks: readonly AgentTaskRecord[]): number {
  const now = session.now();
  const ahead = tasks
    .filter((task) => !isEnded(task) && task.budget.timeoutMs !== undefined)
    .map((task) => (task.deadlineAt !== undefined ? Math.max(0, task.deadlineAt - now) : (task.budget.timeoutMs as number)) + AWAIT_GRACE_MS);
  return Math.min(AWAIT_MAX_TIMEOUT_MS, Math.max(session.environment.defaults.awaitTimeoutMs, ...ahead));
}

/** Whether `task` was made by this call (records from before turns were kept match by call id alone). */
function madeBy(task: AgentTaskRecord, call: ToolCallKey): boolean {
  return task.toolCallId === call.callId && (task.toolCallTurn === undefined || task.toolCallTurn === call.turn);
}

const REVIEW_WORD = { awaiting: 'awaiting review', approved: 'approved by the user', edited: 'edited by the user', discarded: 'discarded by the user' } as const;

function statusWord(task: AgentTaskRecord): string {
  if (task.status !== 'completed') return task.status;
  if (task.review) return REVIEW_WORD[task.review.state];
  return task.resultStatus === 'partial' ? 'partial result' : 'completed';
}

/**
 * Delegation for one caller (the root, or a child allowed nested delegation): `agent.list`, `agent.delegate`, `agent.await`,
 * `agent.cancel` over the run's scheduler, with the caller's policy applied.
 */
export function createDelegationPort(session: RunSession, caller: AgentInvocation, callerProfile: AgentProfile): DelegationPort {
  const allProfiles = () => [...session.environment.profiles.values()];
  const tasksLeft = () => Math.max(0, session.environment.defaults.maxTasksPerRun - session.tasks.size);

  return {
    // Helpers that run on a cadence of their own (or only for the user) are not offered to agents.
    agents: () => delegableAgents(callerProfile, allProfiles()).filter(mayBeDelegated),
    tasksLeft,

    async delegate(request: DelegateRequest, call: ToolCallKey): Promise<DelegateAnswer> {
      const agents = delegableAgents(callerProfile, allProfiles());
      const existing = session.tasksOf(caller.id).find((task) => madeBy(task, call));
      const target = agents.find((agent) => agent.id === (existing?.targetProfileId ?? request.agentId));
      if (target && !existing && !mayBeDelegated(target)) throw new ModelBehaviorError('agent-not-delegable', cadenceRefusal(target));
      if (!target) {
        const names = agents.filter(mayBeDelegated).map((agent) => agent.id).join(', ') || 'none';
        throw new ModelBehaviorError('agent-unavailable', `There is no agent "${request.agentId}" you can delegate to. Agents you can use: ${names}.`);
      }
      const refusal = existing ? undefined : delegationRefusal({ session, invocation: caller });
      if (refusal) throw refusal;
      const task = existing ?? (await createTask({ session, caller, target, request, call }));
      const state = isEnded(task) || session.scheduler.isRunning(task.id) ? 'running' : session.scheduler.enqueue(task.id, parentTaskOf(session, task)?.id);
      return { name: task.workspaceKey, agent: target, state, budget: task.budget, tasksLeft: tasksLeft() };
    },

    async await(request: AwaitRequest, signal: AbortSignal): Promise<AwaitAnswer> {
      // Results from earlier turns are there already: named alone, they come back without a wait.
      const earlier = caller.kind === 'root' ? session.earlierResults.filter((result) => request.tasks?.includes(result.name)) : [];
      const ownNames = request.tasks?.filter((name) => !earlier.some((result) => result.name === name));
      const earlierBlocks = earlier.length > 0 ? { earlierBlocks: await Promise.all(earlier.map((result) => renderEarlierForAwaitNow(session.store, result))) } : {};
      if (earlier.length > 0 && ownNames?.length === 0) return { finished: [], others: [], timedOut: false, waitedMs: 0, ...earlierBlocks };
      const selectedIds = selectTasks(session, caller.id, ownNames).map((task) => task.id);
      const current = () => selectedIds.map((id) => session.tasks.get(id) as AgentTaskRecord);
      const started = Date.now();
      const deadline = started + (request.timeoutMs ?? defaultAwaitTimeoutMs(session, current()));
      let deliver: AgentTaskRecord[] = [];
      let timedOut = false;
      // A limit may end the caller's waits (the root's reply deadline): it gets what is done and goes on.
      const endings = waitEndings({ session, invocation: caller });
      const waitSignal = endings.length > 0 ? AbortSignal.any([signal, ...endings.map((ending) => ending.signal)]) : signal;
      const endedByLimit = () => endings.find((ending) => ending.signal.aborted);
      while (request.mode !== 'statusOnly') {
        const tasks = current();
        // Cancelled tasks have no result to hand over; they are listed with the others. A result
        // waiting for the user's review is not handed over yet, and is waited for.
        const fresh = tasks
          .filter((task) => hasResult(task) && task.resultDeliveredAt === undefined && !awaitsReview(task))
          .sort((a, b) => (a.endedAt ?? 0) - (b.endedAt ?? 0));
        const pending = tasks.filter((task) => !isEnded(task) || awaitsReview(task));
        if (request.mode === 'nextCompleted' && fresh.length > 0) {
          deliver = fresh.slice(0, 1);
          break;
        }
        if (pending.length === 0) {
          deliver = fresh;
          break;
        }
        const remaining = deadline - Date.now();
        if (remaining <= 0 || waitSignal.aborted) {
          timedOut = !signal.aborted;
          // Results nobody reviewed in time (the wait's or the reply's) count as discarded, and the parent is told so.
          const lapse = endedByLimit()?.lapse ?? 'await-timeout';
          const lapsed = signal.aborted ? [] : await discardUnreviewed(session, lapse, tasks.filter(awaitsReview));
          deliver = [...(request.mode === 'allCompleted' ? fresh : []), ...lapsed];
          break;
        }
        // A delegated caller (nested delegation) lends its slot to its own tasks while it waits.
        const callerTaskId = parentTaskOf(session, { parentInvocationId: caller.id })?.id;
        await session.scheduler.waitForChange(remaining, waitSignal, callerTaskId);
      }
      signal.throwIfAborted();
      const limitEnded = endedByLimit() !== undefined;
      // Delivery is marked with the tool result that carries it (see TaskHandover), never before.
      const deliveredIds = new Set(deliver.map((task) => task.id));
      const finished: TaskView[] = [];
      for (const task of deliver) finished.push({ ...(await viewOf(session, task)), alreadyDelivered: false });
      const others: TaskView[] = [];
      for (const task of current()) if (!deliveredIds.has(task.id)) others.push(await viewOf(session, task));
      return { finished, others, timedOut, waitedMs: Date.now() - started, ...(limitEnded ? { endedByLimit: true } : {}), ...earlierBlocks };
    },

    async cancel(names: readonly string[]): Promise<TaskView[]> {
      const tasks = selectTasks(session, caller.id, names);
      const views: TaskView[] = [];
      for (const task of tasks) {
        if (!isEnded(task)) await cancelTask(session, task.id, CANCEL_REASONS.byDelegator);
        views.push(await viewOf(session, session.tasks.get(task.id) ?? task));
      }
      return views;
    },

    announcement(handover) {
      const covered = new Set([...(handover?.delivered ?? []), ...(handover?.announced ?? [])]);
      const news = session
        .tasksOf(caller.id)
        .filter((task) => isEnded(task) && !awaitsReview(task) && task.resultDeliveredAt === undefined && task.announcedAt === undefined && !covered.has(task.workspaceKey));
      if (news.length === 0) return undefined;
      const list = news.map((task) => `\`${task.workspaceKey}\` (${statusWord(task)})`).join(', ');
      const line = `Meanwhile finished: ${list}. Call agent_await to read ${news.length === 1 ? 'its result' : 'their results'}.`;
      return { line, names: news.map((task) => task.workspaceKey) };
    },

    handedOver(handover) {
      const now = session.now();
      return session.tasksOf(caller.id).flatMap((task) => {
        const delivered = handover.delivered.includes(task.workspaceKey) && task.resultDeliveredAt === undefined;
        const announced = handover.announced.includes(task.workspaceKey) && task.announcedAt === undefined;
        if (!delivered && !announced) return [];
        return [{ ...task, ...(delivered ? { resultDeliveredAt: now } : {}), ...(announced ? { announcedAt: now } : {}) }];
      });
    },
  };
}
