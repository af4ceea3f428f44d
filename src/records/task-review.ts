import { z } from 'zod';
import { lazySchema } from '../lazy-schema';

/** The longest edited result the user may hand the parent instead of the agent's own (characters). */
export const REVIEW_EDIT_MAX_CHARS = 16_000;

/**
 * Why a result was discarded without the user saying so: the parent's `agent.await` gave up
 * waiting, or the reply was due (the reply deadline).
 */
export const reviewLapseSchema = z.enum(['await-timeout', 'reply-deadline']);
export type ReviewLapse = z.infer<typeof reviewLapseSchema>;

/**
 * A finished task's result held for the user's look (profile `review: "ask"`): `awaiting` until
 * the user approves, edits or discards it in the side panel, or until it lapses (then discarded).
 */
export const taskReviewSchema = lazySchema(() => z.discriminatedUnion('state', [
  z.strictObject({ state: z.literal('awaiting'), requestedAt: z.number() }),
  z.strictObject({ state: z.literal('approved'), requestedAt: z.number(), decidedAt: z.number() }),
  z.strictObject({
    state: z.literal('edited'),
    requestedAt: z.number(),
    decidedAt: z.number(),
    /** What the parent reads instead of the agent's result, marked as edited by the user. */
    editedText: z.string().min(1).max(REVIEW_EDIT_MAX_CHARS),
  }),
  z.strictObject({
    state: z.literal('discarded'),
    requestedAt: z.number(),
    decidedAt: z.number(),
    /** Absent: the user discarded it; else why it lapsed. */
    lapse: reviewLapseSchema.optional(),
  }),
]));
export type TaskReview = z.infer<typeof taskReviewSchema>;

/** What the user decides in the side panel. */
export const reviewDecisionSchema = lazySchema(() => z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('approve') }),
  z.strictObject({ kind: z.literal('edit'), text: z.string().trim().min(1).max(REVIEW_EDIT_MAX_CHARS) }),
  z.strictObject({ kind: z.literal('discard') }),
]));
export type ReviewDecision = z.infer<typeof reviewDecisionSchema>;

/** Whether the task's result still waits for the user. */
export function awaitsReview(task: { review?: TaskReview }): boolean {
  return task.review?.state === 'awaiting';
}

/**
 * The review after a decision. Only an awaiting review moves; anything else is returned as it was
 * (a decision arriving after the result lapsed, or a second click, changes nothing).
 */
export function decideReview(review: TaskReview | undefined, decision: ReviewDecision, now: number): TaskReview | undefined {
  if (review?.state !== 'awaiting') return review;
  const { requestedAt } = review;
  switch (decision.kind) {
    case 'approve':
      return { state: 'approved', requestedAt, decidedAt: now };
    case 'edit':
      return { state: 'edited', requestedAt, decidedAt: now, editedText: decision.text };
    case 'discard':
      return { state: 'discarded', requestedAt, decidedAt: now };
  }
}

/** The review after it lapsed: an awaiting one is discarded for `lapse`; a decided one stays. */
export function lapseReview(review: TaskReview | undefined, lapse: ReviewLapse, now: number): TaskReview | undefined {
  if (review?.state !== 'awaiting') return review;
  return { state: 'discarded', requestedAt: review.requestedAt, decidedAt: now, lapse };
}
