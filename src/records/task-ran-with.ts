import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { SAMPLING_FIELDS } from '../model/sampling-sources';

/**
 * What a helper's model calls ran with, as the side panel shows it on its task row: the model (a
 * connection by its label, or the page's model), the SillyTavern completion preset where a connection
 * profile has one, the sampling sent, and the agent's fields its source does not take. Taken at the
 * task's first model call; optional, so records from before it still load.
 */
export const taskRanWithSchema = lazySchema(() => z.object({
  model: z.string().max(300),
  /** Set when the helper ran on the page's own model: the model the page names ('' when none). */
  pageModel: z.string().max(300).optional(),
  preset: z.string().max(100).optional(),
  sampling: z.partialRecord(z.enum(SAMPLING_FIELDS), z.union([z.number(), z.string().max(20)])),
  dropped: z.array(z.enum(SAMPLING_FIELDS)).max(SAMPLING_FIELDS.length),
}));
export type TaskRanWith = z.infer<typeof taskRanWithSchema>;
