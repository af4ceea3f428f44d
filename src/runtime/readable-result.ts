import type { ResultCapsule } from '../records/capsule';
import type { AgentTaskRecord } from '../records/task';
import { renderResultFile } from '../rendering/capsule-markdown';
import { renderReviewedResultFile } from '../rendering/review-rendering';

/** A helper's result as a writer may read it: the agent's own, or the user's edit of it. */
export interface ReadableResult {
  capsule: ResultCapsule;
  /** The user rewrote the result in review: `capsule.summary` is their text, the rest is left out. */
  editedByUser: boolean;
}

/**
 * The one rule for what a writer (the parent, a later turn, the root's and the siblings' workspace
 * views) may read of a task's result: nothing before it ended with a capsule, nothing while it
 * waits for the user's review, nothing once discarded (by the user or a lapse); an edited result
 * is read as the user wrote it. A task never held for review, or approved, reads as the agent wrote it.
 */
export function readableResult(task: Pick<AgentTaskRecord, 'status' | 'review'>, capsule: ResultCapsule | undefined): ReadableResult | undefined {
  if (!capsule || (task.status !== 'completed' && task.status !== 'failed')) return undefined;
  const review = task.review;
  if (review?.state === 'awaiting' || review?.state === 'discarded') return undefined;
  if (review?.state === 'edited') {
    return {
      capsule: { ...capsule, summary: review.editedText, findings: [], warnings: [], suggestedNextActions: [], questionsForCaller: [], artifacts: [] },
      editedByUser: true,
    };
  }
  return { capsule, editedByUser: false };
}

/**
 * What `summaries/agents/<key>/result.md` holds for every reader, by the same rule: the result as
 * it may be read, a line saying it was discarded, or undefined while it waits for review (no file).
 */
export function resultFileFor(task: Pick<AgentTaskRecord, 'status' | 'review' | 'workspaceKey' | 'task'>, capsule: ResultCapsule | undefined): string | undefined {
  const review = task.review;
  if (review?.state === 'awaiting') return undefined;
  if (review && review.state !== 'approved') return renderReviewedResultFile(task.task.title, task.workspaceKey, review);
  return capsule ? renderResultFile(capsule) : undefined;
}
