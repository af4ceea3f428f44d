import { readStoredCapsule, type ResultCapsule } from '../records/capsule';
import type { AgentTaskRecord } from '../records/task';
import { awaitsReview, decideReview, type ReviewDecision, type TaskReview } from '../records/task-review';
import type { RunStore } from '../store/run-store';
import { childResultPath } from '../workspace/layout';
import { RunWorkspace } from '../workspace/run-workspace';
import { resultFileFor } from './readable-result';
import { notAwaitingMessage, type ReviewOutcome } from './task-review';

async function storedCapsule(store: RunStore, task: AgentTaskRecord): Promise<ResultCapsule | undefined> {
  const file = task.resultRef ? await store.readFile(task.runId, task.resultRef) : undefined;
  const reading = file ? readStoredCapsule(file.content) : undefined;
  return reading?.ok ? reading.capsule : undefined;
}

/**
 * The user's decision on a result that still waits for review after its run ended (it came after
 * the reply): stored on the task and in its `result.md`, so the conversation's next turn reads it
 * (earlier-results.ts). Undefined when the run is not over: a run still running belongs to the
 * runtime driving it (or to the one that resumes it).
 */
export async function applyEndedRunReview(store: RunStore, runId: string, taskId: string, decision: ReviewDecision, now: number): Promise<ReviewOutcome | undefined> {
  const run = await store.getRun(runId);
  if (!run || run.status === 'running') return undefined;
  const task = await store.getTask(taskId);
  if (!task || task.runId !== runId) return { ok: false, code: 'task-unknown', message: 'This run has no such task; reload the side panel.' };
  if (!awaitsReview(task)) return { ok: false, code: 'review-not-awaiting', message: notAwaitingMessage(task) };
  const reviewed: AgentTaskRecord = { ...task, review: decideReview(task.review, decision, now) as TaskReview };
  const content = resultFileFor(reviewed, await storedCapsule(store, task));
  if (content !== undefined) await new RunWorkspace({ store, runId, now: () => now }).write(childResultPath(task.workspaceKey), content);
  await store.putTask(reviewed);
  await store.appendJournal({
    runId,
    type: 'review-end',
    time: now,
    invocationId: task.parentInvocationId,
    taskId,
    data: { workspaceKey: task.workspaceKey, state: reviewed.review?.state, afterRun: true },
  });
  return { ok: true, task: reviewed };
}
