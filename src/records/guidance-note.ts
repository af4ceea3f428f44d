import { z } from 'zod';
import { lazySchema } from '../lazy-schema';

/** The longest note the side panel may send, in characters. */
export const GUIDANCE_MAX_CHARS = 2_000;
/** How many notes one run keeps; the user is told when it is full. */
export const GUIDANCE_MAX_NOTES = 30;

/**
 * A note the user sent from the side panel to one running invocation of a run (the root, or the
 * child working on a task): stored on the run record when sent, so a worker stop before it reached
 * the model loses nothing; `appliedAt` and `appliedRound` once it went into that invocation's next
 * model request (an ordinary round, a nudge or the wrap-up).
 */
export const guidanceNoteSchema = lazySchema(() => z.object({
  id: z.string().min(1).max(100),
  invocationId: z.string().min(1).max(200),
  /** The task the note is for; absent: the root. */
  taskId: z.string().min(1).max(200).optional(),
  text: z.string().min(1).max(GUIDANCE_MAX_CHARS),
  sentAt: z.number(),
  appliedAt: z.number().optional(),
  /** The invocation's model call (1 for its first) whose request carried the note. */
  appliedRound: z.number().int().min(1).optional(),
}));
export type GuidanceNote = z.infer<typeof guidanceNoteSchema>;

/** A note as the side panel sends it: to the root (no `taskId`) or to one task. */
export const guidanceRequestSchema = lazySchema(() => z.strictObject({
  taskId: z.string().min(1).max(200).optional(),
  text: z.string().trim().min(1, 'write a note first').max(GUIDANCE_MAX_CHARS, `a note holds at most ${GUIDANCE_MAX_CHARS} characters`),
}));
export type GuidanceRequest = z.infer<typeof guidanceRequestSchema>;

export type GuidanceOutcome = { ok: true; noteId: string } | { ok: false; code: string; message: string };
