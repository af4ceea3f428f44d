import { z } from 'zod';
import { lazySchema } from '../lazy-schema';

/**
 * What an invocation's loop does next, stored on the invocation with the message that made it so
 * (the nudge, the wrap-up instruction): a resumed loop reads it here, never from message text.
 * - `round`: an ordinary round (also what a record without a step means);
 * - `task-return-nudged`: a child was told once to finish with `task_return`; its next plain-text
 *   answer is its result;
 * - `wrap-up`: a limit (named by its id) ended the loop; the next model call is the last one, and the
 *   turn it makes ends the invocation.
 */
export const loopStepSchema = lazySchema(() => z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('round') }),
  z.object({ kind: z.literal('task-return-nudged') }),
  z.object({ kind: z.literal('wrap-up'), limit: z.string().min(1).max(40) }),
]));
export type LoopStep = z.infer<typeof loopStepSchema>;

/**
 * The limits' own state on one invocation (see src/runtime/limits/): which limits it met, and the
 * round at which each limit's note went into a tool result (a note is given once).
 */
export const invocationLimitStateSchema = lazySchema(() => z.object({
  met: z.array(z.string().min(1).max(40)).max(16).optional(),
  notedAtRound: z.record(z.string().min(1).max(40), z.number().int().nonnegative()).optional(),
}));
export type InvocationLimitState = z.infer<typeof invocationLimitStateSchema>;
