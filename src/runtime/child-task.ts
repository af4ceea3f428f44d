import { CancelledError, HostContractError, RetinueError } from '../errors';
import type { AgentInvocation } from '../records/invocation';
import type { ResultCapsule } from '../records/capsule';
import type { AgentTaskRecord } from '../records/task';
import { awaitsReview } from '../records/task-review';
import { createDelegationPort } from './delegation-service';
import { childPolicy } from './invocation-policy';
import type { InvocationDriver } from './invocation-driver';
import { runInvocationLoop } from './invocation-loop';
import { abortReason, isSuspended, TaskTimeoutError } from './run-signals';
import type { RunSession } from './run-session';
import type { TaskTimer } from './scheduler';
import { clockedModel, createTaskClock } from './task-clock';
import { createTaskResultPort, failedResult, writeTaskResult } from './task-result';
import { asksForReview, noteReviewStart, reviewProgressLine, withReviewRequest, writeReadableResultFile } from './task-review';
import { childWorkspaceView, endSubtree, parentEnded, subtreeReason } from './task-tree';
import { samplingFor } from './turn-preparation';

type TaskEnd =
  | { status: 'completed'; capsule?: ResultCapsule }
  | { status: 'failed'; error: RetinueError }
  | { status: 'cancelled'; error: RetinueError };

const PROGRESS_WORD = { completed: 'done', failed: 'failed', cancelled: 'cancelled' } as const;

function asRetinueError(error: unknown): RetinueError {
  if (error instanceof RetinueError) return error;
  return new HostContractError('unexpected-error', error instanceof Error ? error.message : String(error), { cause: error });
}

/**
 * Records how a task ended: the task first (a resume goes by the task, so once this is stored the
 * task is never started again), then its child invocation, the journal and progress.
 */
export async function endTask(session: RunSession, taskId: string, invocation: AgentInvocation | undefined, end: TaskEnd): Promise<void> {
  const now = session.now();
  const error = end.status === 'completed' ? undefined : end.error.toJSON();
  // What this task started and left unfinished ends first (nested delegation), its results kept.
  await endSubtree(session, (session.tasks.get(taskId) as AgentTaskRecord).childInvocationId, end.status);
  const task = session.tasks.get(taskId) as AgentTaskRecord;
  // A profile with `review: "ask"` holds the result for the user before the parent gets it.
  const finished: AgentTaskRecord = withReviewRequest(session, {
    ...task,
    status: end.status,
    endedAt: now,
    usage: invocation?.usage ?? task.usage,
    ...(error ? { error } : {}),
  });
  await session.saveTask(finished);
  // A result its agent holds for review that is not waiting (it ended otherwise) is readable now.
  if (asksForReview(session, finished) && !awaitsReview(finished)) await writeReadableResultFile(session, finished);
  if (invocation) {
    const ended: AgentInvocation = { ...invocation, status: end.status, endedAt: now, ...(error ? { error } : {}) };
    await session.store.putInvocation(ended);
    session.journal.note('invocation-end', {
      invocationId: ended.id,
      taskId,
      data: { status: end.status, usage: ended.usage, ...(error ? { error } : {}) },
    });
  }
  session.journal.note('task-end', {
    invocationId: task.parentInvocationId,
    taskId,
    data: { status: end.status, resultStatus: finished.resultStatus, workspaceKey: task.workspaceKey, usage: finished.usage, ...(error ? { error } : {}) },
  });
  if (finished.review?.state === 'awaiting') noteReviewStart(session, finished);
  session.reportProgress(reviewProgressLine(finished) ?? `${task.workspaceKey} · ${task.task.title} — ${PROGRESS_WORD[end.status]}`);
}

/**
 * After a restart: a task whose end was stored while its child invocation's was not (the runtime
 * stopped in between) gets the invocation's end recorded now, from the task's.
 */
export async function completeEndRecords(session: RunSession, invocations: readonly AgentInvocation[]): Promise<void> {
  for (const task of session.tasks.values()) {
    if (task.status !== 'completed' && task.status !== 'failed' && task.status !== 'cancelled') continue;
    const child = invocations.find((invocation) => invocation.id === task.childInvocationId);
    if (!child || (child.status !== 'created' && child.status !== 'running')) continue;
    const ended: AgentInvocation = { ...child, status: task.status, endedAt: task.endedAt ?? session.now(), ...(task.error ? { error: task.error } : {}) };
    await session.store.putInvocation(ended);
    session.journal.note('invocation-end', { invocationId: ended.id, taskId: task.id, data: { status: ended.status, usage: ended.usage, ...(task.error ? { error: task.error } : {}) } });
  }
}

/** A failed task gets a failed capsule for its parent, then the failed status. */
async function failTask(session: RunSession, taskId: string, invocation: AgentInvocation | undefined, error: RetinueError): Promise<void> {
  await writeTaskResult(session, taskId, failedResult(error.message));
  await endTask(session, taskId, invocation, { status: 'failed', error });
}

/**
 * Runs one delegated task in the background, from its stored child invocation, to its end:
 * a capsule (completed or partial), a failed capsule (model failure, timeout, no result), or
 * cancelled. A suspended runtime writes nothing; a storage failure fails the whole run fast.
 */
export async function runChildTask(session: RunSession, taskId: string, signal: AbortSignal, timer: TaskTimer): Promise<void> {
  let invocation: AgentInvocation | undefined;
  try {
    const task = session.tasks.get(taskId);
    if (!task || task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled') return;
    invocation = await session.store.getInvocation(task.childInvocationId);
    if (!invocation) throw new HostContractError('invocation-missing', `The child invocation of task ${task.workspaceKey} is not in the store.`);
    if (task.resultRef) {
      // The result was handed over before the runtime stopped: only the records are left to write.
      await endTask(session, taskId, invocation, { status: 'completed', capsule: await session.capsuleOf(task) });
      return;
    }
    const endedParent = parentEnded(session, task);
    if (endedParent) {
      // The task that gave this one ended while the runtime was stopped: this one ends with it.
      await endTask(session, taskId, invocation, { status: 'cancelled', error: new CancelledError(subtreeReason(endedParent.status)) });
      return;
    }
    if (invocation.status === 'cancelled' || invocation.status === 'failed') {
      // Its end was being recorded when the runtime stopped (records written before that order):
      // finish recording it, never start it again.
      const error = new CancelledError(invocation.error?.message ?? 'The task was cancelled.');
      await endTask(session, taskId, invocation, invocation.status === 'cancelled' ? { status: 'cancelled', error } : { status: 'failed', error });
      return;
    }
    // A task that was already working when the runtime stopped was announced then: not again.
    const resumed = task.status === 'running';
    await session.saveTask({ ...task, status: 'running', startedAt: task.startedAt ?? session.now() });
    if (!resumed) {
      session.journal.note('task-start', { invocationId: task.parentInvocationId, taskId, data: { workspaceKey: task.workspaceKey, agentId: task.targetProfileId } });
      session.reportProgress(`${task.workspaceKey} · ${task.task.title} — started`);
    }
    invocation = { ...invocation, status: 'running' };
    await session.store.putInvocation(invocation);
    if (!resumed) session.journal.note('invocation-start', { invocationId: invocation.id, taskId, data: { profileId: invocation.profileId, kind: 'subagent' } });
    const profile = session.profile(task.targetProfileId);
    const clock = createTaskClock(session, taskId, timer);
    const policy = childPolicy(profile, { depth: invocation.depth, maxDepth: session.environment.defaults.maxDepth });
    const driver: InvocationDriver = {
      session,
      invocation,
      policy,
      model: clockedModel(session.resolveModel(profile), clock),
      sampling: samplingFor(session.snapshot, profile),
      signal,
      workspace: childWorkspaceView(session, task),
      delegation: policy.tools.some((tool) => tool.startsWith('agent.')) ? createDelegationPort(session, invocation, profile) : undefined,
      taskResult: createTaskResultPort(session, taskId),
      taskId,
    };
    try {
      const ending = await runInvocationLoop(driver);
      invocation = driver.invocation;
      if (ending.kind !== 'task-returned') throw new HostContractError('child-ending', `A child ended with "${ending.kind}", which only the root may.`);
      await endTask(session, taskId, invocation, { status: 'completed', capsule: ending.capsule });
    } finally {
      invocation = driver.invocation;
    }
  } catch (error) {
    if (isSuspended(signal) || isSuspended(session.signal)) return;
    await settleFailure(session, taskId, invocation, signal, error).catch((failure: unknown) => session.failFast(asRetinueError(failure)));
  }
}

async function settleFailure(session: RunSession, taskId: string, invocation: AgentInvocation | undefined, signal: AbortSignal, error: unknown): Promise<void> {
  if (error instanceof HostContractError && !signal.aborted) {
    session.failFast(error);
    await endTask(session, taskId, invocation, { status: 'failed', error });
    return;
  }
  if (!signal.aborted) {
    await failTask(session, taskId, invocation, asRetinueError(error));
    return;
  }
  const reason = abortReason(signal);
  if (reason instanceof TaskTimeoutError) await failTask(session, taskId, invocation, reason);
  else await endTask(session, taskId, invocation, { status: 'cancelled', error: reason instanceof CancelledError ? reason : new CancelledError(reason.message) });
}

/**
 * Cancels one task: a queued one is recorded cancelled at once, a running one is aborted and its
 * runner records it. Resolves when the task's records say how it ended.
 */
export async function cancelTask(session: RunSession, taskId: string, reason: string): Promise<void> {
  const outcome = await session.scheduler.cancel(taskId, new CancelledError(reason));
  const task = session.tasks.get(taskId);
  if (outcome === 'aborted' || !task || task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled') return;
  const invocation = await session.store.getInvocation(task.childInvocationId);
  await endTask(session, taskId, invocation, { status: 'cancelled', error: new CancelledError(reason) });
  session.scheduler.notify();
}
