import { z } from 'zod';
import { lazySchema } from '../lazy-schema';

/** Token and step counts, summed per round, invocation, task and run. */
export const usageSchema = lazySchema(() => z.object({
  rounds: z.number().int().nonnegative(),
  toolCalls: z.number().int().nonnegative(),
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  totalTokens: z.number().int().nonnegative(),
  /** Some of the tokens are Retinue's estimate: a provider gave no usage for a call counted here. */
  estimated: z.boolean().optional(),
}));
export type Usage = z.infer<typeof usageSchema>;

export const emptyUsage = (): Usage => ({ rounds: 0, toolCalls: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0 });

/** Sums two usages; the sum is estimated when either part is. */
export function addUsage(a: Usage, b: Partial<Usage>): Usage {
  const estimated = a.estimated === true || b.estimated === true;
  return {
    rounds: a.rounds + (b.rounds ?? 0),
    toolCalls: a.toolCalls + (b.toolCalls ?? 0),
    promptTokens: a.promptTokens + (b.promptTokens ?? 0),
    completionTokens: a.completionTokens + (b.completionTokens ?? 0),
    totalTokens: a.totalTokens + (b.totalTokens ?? 0),
    ...(estimated ? { estimated } : {}),
  };
}
