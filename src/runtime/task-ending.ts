import type { RetinueError } from '../errors';
import type { AgentInvocation } from '../records/invocation';
import type { ResultCapsule } from '../records/capsule';
import type { AgentTaskRecord } from '../records/task';
import type { RunSession } from './run-session';
import { awaitsReview } from '../records/task-review';
import { asksForReview, noteReviewStart, reviewProgressLine, withReviewRequest, writeReadableResultFile } from './task-review';
import { subtreeReason, type EndStatus } from './task-tree';
import { cancelledFor, type CancelReason } from './cancel-reasons';

/**
 * How tasks end: one task (its records, journal and progress), the subtree it leaves unfinished,
 * a cancel, and what the root leaves unfinished. Everything that ends a task comes here, so the
 * modules that start and run tasks (child-task, delegation, the limits) do not import each other.
 */

export type TaskEnd =
  | { status: 'completed'; capsule?: ResultCapsule }
  | { status: 'failed'; error: RetinueError }
  | { status: 'cancelled'; error: RetinueError };

const PROGRESS_WORD = { completed: 'done', failed: 'failed', cancelled: 'cancelled' } as const;

function isUnfinished(task: AgentTaskRecord): boolean {
  return task.status === 'queued' || task.status === 'running';
}

/**
 * Records how a task ended: the task, its child invocation and their journal events in one step (a
 * resume goes by the task, so once this is stored the task is never started again), then progress.
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
  const ended: AgentInvocation | undefined = invocation && { ...invocation, status: end.status, endedAt: now, ...(error ? { error } : {}) };
  if (ended) {
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
  session.tasks.set(finished.id, finished);
  await session.saveStep({ tasks: [finished], ...(ended ? { invocations: [ended] } : {}) });
  // A result its agent holds for review that is not waiting (it ended otherwise) is readable now.
  if (asksForReview(session, finished) && !awaitsReview(finished)) await writeReadableResultFile(session, finished);
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

/**
 * Ends what an ending task left unfinished: every queued or running task its invocation started,
 * and theirs in turn (each task's own end does the same). Results already given stay stored.
 */
export async function endSubtree(session: RunSession, invocationId: string, parentEnd: EndStatus): Promise<void> {
  const unfinished = session.tasksOf(invocationId).filter(isUnfinished);
  await Promise.all(unfinished.map((task) => cancelTask(session, task.id, subtreeReason(parentEnd))));
}

/**
 * Cancels one task: a queued one is recorded cancelled at once, a running one is aborted and its
 * runner records it. Resolves when the task's records say how it ended.
 */
export async function cancelTask(session: RunSession, taskId: string, reason: CancelReason): Promise<void> {
  const outcome = await session.scheduler.cancel(taskId, cancelledFor(reason));
  const task = session.tasks.get(taskId);
  if (outcome === 'aborted' || !task || task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled') return;
  // Its creation is stored first, so that step cannot overwrite the end recorded here.
  if (!(await session.creations.stored(taskId))) return;
  const invocation = await session.store.getInvocation(task.childInvocationId);
  await endTask(session, taskId, invocation, { status: 'cancelled', error: cancelledFor(reason) });
  session.scheduler.notify();
}

/** Cancels every unfinished child (the root ended) and waits until their records say so. */
export async function endUnfinishedChildren(session: RunSession, reason: CancelReason): Promise<void> {
  const dequeued = session.scheduler.cancelAll(cancelledFor(reason));
  await session.scheduler.settled();
  for (const task of session.tasks.values()) {
    if (task.status !== 'queued' && task.status !== 'running') continue;
    if (!dequeued.includes(task.id) && session.scheduler.isRunning(task.id)) continue;
    if (!(await session.creations.stored(task.id))) continue;
    const invocation = await session.store.getInvocation(task.childInvocationId);
    await endTask(session, task.id, invocation, { status: 'cancelled', error: cancelledFor(reason) });
  }
}
