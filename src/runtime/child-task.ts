import { CancelledError, HostContractError, RetinueError } from '../errors';
import type { AgentInvocation } from '../records/invocation';
import type { ResultCapsule } from '../records/capsule';
import type { AgentTaskRecord } from '../records/task';
import { createChildWorkspaceView } from '../workspace/child-view';
import { childPolicy } from './invocation-policy';
import type { InvocationDriver } from './invocation-driver';
import { runInvocationLoop } from './invocation-loop';
import { abortReason, isSuspended, TaskTimeoutError } from './run-signals';
import type { RunSession } from './run-session';
import { createTaskResultPort, failedResult, writeTaskResult } from './task-result';
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

/** Records how a task ended: its child invocation, the task (with usage), journal and progress. */
export async function endTask(session: RunSession, taskId: string, invocation: AgentInvocation | undefined, end: TaskEnd): Promise<void> {
  const now = session.now();
  const error = end.status === 'completed' ? undefined : end.error.toJSON();
  if (invocation) {
    const ended: AgentInvocation = { ...invocation, status: end.status, endedAt: now, ...(error ? { error } : {}) };
    await session.store.putInvocation(ended);
    session.journal.note('invocation-end', {
      invocationId: ended.id,
      taskId,
      data: { status: end.status, usage: ended.usage, ...(error ? { error } : {}) },
    });
  }
  const task = session.tasks.get(taskId) as AgentTaskRecord;
  const finished: AgentTaskRecord = {
    ...task,
    status: end.status,
    endedAt: now,
    usage: invocation?.usage ?? task.usage,
    ...(error ? { error } : {}),
  };
  await session.saveTask(finished);
  session.journal.note('task-end', {
    invocationId: task.parentInvocationId,
    taskId,
    data: { status: end.status, resultStatus: finished.resultStatus, workspaceKey: task.workspaceKey, usage: finished.usage, ...(error ? { error } : {}) },
  });
  session.reportProgress(`${task.workspaceKey} · ${task.task.title} — ${PROGRESS_WORD[end.status]}`);
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
export async function runChildTask(session: RunSession, taskId: string, signal: AbortSignal): Promise<void> {
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
    await session.saveTask({ ...task, status: 'running', startedAt: task.startedAt ?? session.now() });
    session.journal.note('task-start', { invocationId: task.parentInvocationId, taskId, data: { workspaceKey: task.workspaceKey, agentId: task.targetProfileId } });
    session.reportProgress(`${task.workspaceKey} · ${task.task.title} — started`);
    invocation = { ...invocation, status: 'running' };
    await session.store.putInvocation(invocation);
    session.journal.note('invocation-start', { invocationId: invocation.id, taskId, data: { profileId: invocation.profileId, kind: 'subagent' } });
    const profile = session.profile(task.targetProfileId);
    const driver: InvocationDriver = {
      session,
      invocation,
      policy: childPolicy(profile),
      model: session.resolveModel(profile),
      sampling: samplingFor(session.snapshot, profile),
      signal,
      workspace: createChildWorkspaceView({ workspace: session.workspace, workspaceKey: task.workspaceKey }),
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
