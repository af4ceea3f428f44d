import type { AgentTaskRecord } from '../records/task';
import { awaitsReview, decideReview, lapseReview, type ReviewDecision, type ReviewLapse, type TaskReview } from '../records/task-review';
import { childResultPath } from '../workspace/layout';
import { resultFileFor } from './readable-result';
import type { RunSession } from './run-session';

/** The page's progress word for where a review stands (after `key · title — `). */
const REVIEW_PROGRESS: Record<TaskReview['state'], string> = {
  awaiting: 'result waits for your review',
  approved: 'result approved',
  edited: 'result edited by you',
  discarded: 'result discarded',
};

/**
 * A task that just ended, with its result held for review when its agent's profile asks for one
 * (`review: "ask"`). Only a completed task (its capsule completed or partial) is held: a failed
 * capsule says what went wrong and goes to the parent as it is. A review already there is kept.
 */
export function withReviewRequest(session: RunSession, task: AgentTaskRecord): AgentTaskRecord {
  if (task.review || task.status !== 'completed' || task.resultStatus === 'failed') return task;
  if (!asksForReview(session, task)) return task;
  return { ...task, review: { state: 'awaiting', requestedAt: session.now() } };
}

/** The task's agent holds its results for the user's review (profile `review: "ask"`). */
export function asksForReview(session: RunSession, task: Pick<AgentTaskRecord, 'targetProfileId'>): boolean {
  return session.environment.profiles.get(task.targetProfileId)?.review === 'ask';
}

/**
 * Writes `summaries/agents/<key>/result.md` as every reader may read it now (see readable-result.ts);
 * while the result waits for review there is no such file.
 */
export async function writeReadableResultFile(session: RunSession, task: AgentTaskRecord): Promise<void> {
  const content = resultFileFor(task, await session.capsuleOf(task));
  if (content !== undefined) await session.workspace.write(childResultPath(task.workspaceKey), content);
}

/** The progress line for a task's review, e.g. `scene-critic · Critique — result waits for your review`. */
export function reviewProgressLine(task: AgentTaskRecord): string | undefined {
  return task.review ? `${task.workspaceKey} · ${task.task.title} — ${REVIEW_PROGRESS[task.review.state]}` : undefined;
}

/** Journals that a task's result now waits for review (called once its end is stored). */
export function noteReviewStart(session: RunSession, task: AgentTaskRecord): void {
  session.journal.note('review-start', { invocationId: task.parentInvocationId, taskId: task.id, data: { workspaceKey: task.workspaceKey } });
}

async function saveReview(session: RunSession, task: AgentTaskRecord, review: TaskReview): Promise<AgentTaskRecord> {
  const reviewed: AgentTaskRecord = { ...task, review };
  // The decision is taken in this synchronous step, before any write: a second decision arriving
  // meanwhile (the user's click racing a lapse) sees it and is refused.
  session.tasks.set(task.id, reviewed);
  // Other readers of the task's notes (the root, sibling agents) see what the user decided, too.
  await writeReadableResultFile(session, reviewed);
  await session.saveTask(reviewed);
  session.journal.note('review-end', {
    invocationId: task.parentInvocationId,
    taskId: task.id,
    data: { workspaceKey: task.workspaceKey, state: review.state, ...(review.state === 'discarded' && review.lapse ? { lapse: review.lapse } : {}) },
  });
  session.reportProgress(reviewProgressLine(reviewed) as string);
  // A parent waiting in `agent.await` looks again.
  session.scheduler.notify();
  return reviewed;
}

export type ReviewOutcome = { ok: true; task: AgentTaskRecord } | { ok: false; code: 'task-unknown' | 'review-not-awaiting' | 'run-not-active'; message: string };

/** Why a decision on a task's result is refused: it no longer waits, and what happened instead. */
export function notAwaitingMessage(task: AgentTaskRecord): string {
  const state = task.review?.state;
  const what = state === 'discarded' ? 'it was discarded' : state ? `it was ${state} already` : 'it was never held for review';
  return `The result of ${task.workspaceKey} no longer waits for review: ${what}.`;
}

/**
 * The user's decision on a result waiting for review (from the side panel). A decision on a result
 * that no longer waits (decided already, or it lapsed) is refused with what happened instead.
 */
export async function applyReviewDecision(session: RunSession, taskId: string, decision: ReviewDecision): Promise<ReviewOutcome> {
  const task = session.tasks.get(taskId);
  if (!task) return { ok: false, code: 'task-unknown', message: 'This run has no such task; reload the side panel.' };
  if (!awaitsReview(task)) return { ok: false, code: 'review-not-awaiting', message: notAwaitingMessage(task) };
  return { ok: true, task: await saveReview(session, task, decideReview(task.review, decision, session.now()) as TaskReview) };
}

/**
 * Discards, for `lapse`, every result still waiting for review among `tasks` (default: all of the
 * run's), and returns the tasks it discarded. `agent.await` calls it when it gives up waiting; the
 * reply deadline calls it (with `reply-deadline`) when the reply is due, so no result is left
 * hanging on a user who is not looking.
 */
export async function discardUnreviewed(session: RunSession, lapse: ReviewLapse, tasks: readonly AgentTaskRecord[] = [...session.tasks.values()]): Promise<AgentTaskRecord[]> {
  const discarded: AgentTaskRecord[] = [];
  for (const listed of tasks) {
    const task = session.tasks.get(listed.id) ?? listed;
    if (!awaitsReview(task)) continue;
    discarded.push(await saveReview(session, task, lapseReview(task.review, lapse, session.now()) as TaskReview));
  }
  return discarded;
}
