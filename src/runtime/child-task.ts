import { CancelledError, HostContractError, RetinueError } from '../errors';
import type { AgentInvocation } from '../records/invocation';
import { agentSampling } from './agent-sampling';
import { createDelegationPort } from './delegation-service';
import { childPolicy, hostFeaturesOf } from './invocation-policy';
import { settleStartWrite, type InvocationDriver } from './invocation-driver';
import { runInvocationLoop } from './invocation-loop';
import { abortReason, isSuspended, TaskTimeoutError } from './run-signals';
import type { RunSession } from './run-session';
import type { TaskTimer } from './scheduler';
import { clockedModel, createTaskClock } from './task-clock';
import { createTaskResultPort, failedResult, writeTaskResult } from './task-result';
import { taskStartRefusal } from './limits/asking';
import { endTask } from './task-ending';
import { ranWithRecorded } from './task-ran-with';
import { childWorkspaceView, parentEnded, subtreeReason } from './task-tree';
import { cancelledFor } from './cancel-reasons';

function asRetinueError(error: unknown): RetinueError {
  if (error instanceof RetinueError) return error;
  return new HostContractError('unexpected-error', error instanceof Error ? error.message : String(error), { cause: error });
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
    // A task starts once its creation is stored (with its parent's tool result); never if it was not.
    if (!(await session.creations.stored(taskId))) return;
    const task = session.tasks.get(taskId);
    if (!task || task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled') return;
    invocation = session.creations.takeFresh(task.childInvocationId) ?? (await session.store.getInvocation(task.childInvocationId));
    if (!invocation) throw new HostContractError('invocation-missing', `The child invocation of task ${task.workspaceKey} is not in the store.`);
    if (task.resultRef) {
      // The result was handed over before the runtime stopped: only the records are left to write.
      await endTask(session, taskId, invocation, { status: 'completed', capsule: await session.capsuleOf(task) });
      return;
    }
    const endedParent = parentEnded(session, task);
    if (endedParent) {
      // The task that gave this one ended while the runtime was stopped: this one ends with it.
      await endTask(session, taskId, invocation, { status: 'cancelled', error: cancelledFor(subtreeReason(endedParent.status)) });
      return;
    }
    if (invocation.status === 'cancelled' || invocation.status === 'failed') {
      // Its end was being recorded when the runtime stopped (records written before that order):
      // finish recording it, never start it again.
      const error = new CancelledError(invocation.error?.message ?? 'The task was cancelled.', { ...(invocation.error ? { code: invocation.error.code } : {}) });
      await endTask(session, taskId, invocation, invocation.status === 'cancelled' ? { status: 'cancelled', error } : { status: 'failed', error });
      return;
    }
    const startRefusal = task.status === 'queued' ? taskStartRefusal({ session, invocation }) : undefined;
    if (startRefusal !== undefined) {
      // A limit allows no new task now (the spend cap): this one ends before it began.
      await endTask(session, taskId, invocation, { status: 'cancelled', error: cancelledFor(startRefusal) });
      return;
    }
    // A task that was already working when the runtime stopped was announced then: not again.
    const resumed = task.status === 'running';
    const started: typeof task = { ...task, status: 'running', startedAt: task.startedAt ?? session.now() };
    invocation = { ...invocation, status: 'running' };
    if (!resumed) {
      session.journal.note('task-start', { invocationId: task.parentInvocationId, taskId, data: { workspaceKey: task.workspaceKey, agentId: task.targetProfileId } });
      session.journal.note('invocation-start', { invocationId: invocation.id, taskId, data: { profileId: invocation.profileId, kind: 'subagent' } });
    }
    // The task and its invocation start in one step, their events with them. The first model call
    // goes out beside that write (it waits on nothing the write holds); the child's first write of
    // its own, or its end, waits for it first.
    session.tasks.set(taskId, started);
    const startWrite = session.saveStep({ invocations: [invocation], tasks: [started] });
    startWrite.catch(() => undefined);
    if (!resumed) session.reportProgress(`${task.workspaceKey} · ${task.task.title} — started`);
    const profile = session.profile(task.targetProfileId);
    const clock = createTaskClock(session, taskId, timer);
    const policy = childPolicy(profile, { depth: invocation.depth, maxDepth: session.environment.defaults.maxDepth, host: hostFeaturesOf(session.run.adapter) });
    const { sampling, dropped } = agentSampling(session.snapshot, profile);
    const driver: InvocationDriver = {
      session,
      invocation,
      policy,
      model: ranWithRecorded(clockedModel(session.resolveModel(profile), clock), { session, taskId, sampling, dropped }),
      sampling,
      signal,
      workspace: childWorkspaceView(session, task),
      delegation: policy.tools.some((tool) => tool.startsWith('agent.')) ? createDelegationPort(session, invocation, profile) : undefined,
      taskResult: createTaskResultPort(session, taskId),
      taskId,
      startWrite,
    };
    try {
      const ending = await runInvocationLoop(driver);
      await settleStartWrite(driver);
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
