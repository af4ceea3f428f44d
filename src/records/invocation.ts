import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { budgetSchema } from './budget';
import { invocationLimitStateSchema, loopStepSchema } from './loop-state';
import { usageSchema } from './usage';

export const invocationKindSchema = z.enum(['root', 'subagent', 'handoff']);
export const invocationStatusSchema = z.enum(['created', 'running', 'completed', 'failed', 'cancelled', 'transferred']);
export type InvocationStatus = z.infer<typeof invocationStatusSchema>;
export const exitPolicySchema = z.enum(['runFinishAllowed', 'taskReturnRequired']);
export type ExitPolicy = z.infer<typeof exitPolicySchema>;

/** A chat-completions message as the loop keeps it (OpenAI shape, stored as plain JSON). */
export const chatMessageSchema = lazySchema(() => z.looseObject({
  role: z.enum(['system', 'user', 'assistant', 'tool', 'developer']),
  content: z.unknown().optional(),
}));
export type StoredChatMessage = z.infer<typeof chatMessageSchema>;

/** One agent's turn-taking inside a run: the root, or a child working on a delegated task. */
export const agentInvocationSchema = lazySchema(() => z.object({
  id: z.string(),
  runId: z.string(),
  parentInvocationId: z.string().optional(),
  profileId: z.string(),
  kind: invocationKindSchema,
  status: invocationStatusSchema,
  exitPolicy: exitPolicySchema,
  budget: budgetSchema,
  usage: usageSchema,
  /** `runId:invocationId`; kept in records, never put into messages or tool text. */
  providerSessionId: z.string(),
  /** The message history; the store keeps each message once, as its own record (history-message.ts), and assembles it on read. */
  messages: z.array(chatMessageSchema),
  /** Depth in the delegation tree: 0 for the root. */
  depth: z.number().int().nonnegative(),
  createdAt: z.number(),
  endedAt: z.number().optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  /** What the loop does next (see loop-state.ts); absent: an ordinary round. */
  nextStep: loopStepSchema.optional(),
  /** The limits' state on this invocation (see src/runtime/limits/). */
  limits: invocationLimitStateSchema.optional(),
}));
export type AgentInvocation = z.infer<typeof agentInvocationSchema>;
