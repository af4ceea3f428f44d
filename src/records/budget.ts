import { z } from 'zod';
import { lazySchema } from '../lazy-schema';

/** How much an invocation may do. A delegation can only narrow its target profile's budget. */
export const budgetSchema = lazySchema(() => z.object({
  maxRounds: z.number().int().min(1).max(100),
  maxToolCalls: z.number().int().min(0).max(500),
  timeoutMs: z.number().int().min(1_000).max(3_600_000).optional(),
}));
export type Budget = z.infer<typeof budgetSchema>;
