import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { chatMessageSchema } from './invocation';

/**
 * One message of an invocation's history, stored once as its own record (store version 2), keyed by
 * `[runId, invocationId, seq]` with `seq` its position (0, 1, 2, ...). A message the run's prompt
 * snapshot already holds (the page's chat, at the start of the root's history) is stored as
 * `snapshotIndex`, its position in the snapshot's `messages`, instead of a second copy.
 */
export const historyMessageSchema = lazySchema(() => z
  .object({
    runId: z.string(),
    invocationId: z.string(),
    seq: z.number().int().nonnegative(),
    message: chatMessageSchema.optional(),
    snapshotIndex: z.number().int().nonnegative().optional(),
  })
  .refine((record) => (record.message === undefined) !== (record.snapshotIndex === undefined), {
    message: 'a history message holds either `message` or `snapshotIndex`, exactly one of them',
  }));
export type HistoryMessage = z.infer<typeof historyMessageSchema>;
