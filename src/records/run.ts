import { z } from 'zod';
import { usageSchema } from './usage';

export const runStatusSchema = z.enum(['running', 'completed', 'failed', 'cancelled', 'interrupted']);
export type RunStatus = z.infer<typeof runStatusSchema>;

/** One chat turn the page generated, turned into an agent run. */
export const agentRunSchema = z.object({
  id: z.string(),
  /** The page's origin, e.g. `http://127.0.0.1:8000`. */
  origin: z.string(),
  /** The host adapter that read the page's request (`openai-chat`, `sillytavern`, or `runner`). */
  adapter: z.string(),
  title: z.string(),
  status: runStatusSchema,
  rootInvocationId: z.string(),
  createdAt: z.number(),
  endedAt: z.number().optional(),
  reply: z.string().optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  usage: usageSchema,
});
export type AgentRun = z.infer<typeof agentRunSchema>;
