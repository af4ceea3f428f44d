import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { chatIdentitySchema } from './chat-identity';
import { GUIDANCE_MAX_NOTES, guidanceNoteSchema } from './guidance-note';
import { usageSchema } from './usage';

/**
 * Why the page got its own generation instead of the run's reply (DESIGN.md §13, fail open): a code
 * (`tools-refused`, `context-too-long`, `empty-answer`, `cut-answer`, `retinue-error`, or a limit's
 * code) and the reason in words.
 */
export const runFallbackSchema = lazySchema(() => z.object({ code: z.string().max(100), reason: z.string().max(2_000) }));
export type RunFallback = z.infer<typeof runFallbackSchema>;

export const runStatusSchema = z.enum(['running', 'completed', 'failed', 'cancelled', 'interrupted']);
export type RunStatus = z.infer<typeof runStatusSchema>;

/** One chat turn the page generated, turned into an agent run. */
export const agentRunSchema = lazySchema(() => z.object({
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
  /**
   * When the reply went to the page while the run still worked: helpers after a reply deadline or
   * after the reply, or one the user ran between turns (`reopenedAt`). The run ends after them.
   */
  repliedAt: z.number().optional(),
  /**
   * When the user last ran a helper on this run after it had ended (between turns, the side panel's
   * Run button): the run was taken up again for that helper (runtime/between-turns.ts).
   */
  reopenedAt: z.number().optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  /** Set when the run failed in a way that sent the page's original request to its own model. */
  fallback: runFallbackSchema.optional(),
  usage: usageSchema,
  /**
   * When the root's reply is due (a reply deadline, set once at the start); absent: the root waits
   * for its helpers. A resumed run keeps it (see src/runtime/limits/reply-deadline.ts).
   */
  replyDueAt: z.number().optional(),
  /** The run's spend cap in tokens, fixed at the start; absent: no cap (limits/spend-cap.ts). */
  tokenCap: z.number().int().positive().optional(),
  /** When the run was first seen at its spend cap (queued tasks were cancelled then, once). */
  tokenCapReachedAt: z.number().optional(),
  /** The cap on the run's stored history in bytes, fixed at the start (limits/history-cap.ts); absent: none. */
  historyCapBytes: z.number().int().positive().optional(),
  /** When the run was first seen at its history cap (recorded and announced once). */
  historyCapReachedAt: z.number().optional(),
  /** The conversation and message this run answers (see chat-identity.ts). */
  chat: z.optional(chatIdentitySchema()),
  /** The bytes the ended run keeps in the store, measured once for the per-origin quota (origin-storage-quota.ts). */
  storedBytes: z.number().int().min(0).optional(),
  /** Notes the user sent from the side panel to the run's invocations (guidance-note.ts, runtime/guidance.ts). */
  guidance: z.array(guidanceNoteSchema).max(GUIDANCE_MAX_NOTES).optional(),
}));
export type AgentRun = z.infer<typeof agentRunSchema>;

/** A run that gave the page its reply (early, or at its end); one that fell open or was stopped did not. */
export function endedWithReply(run: AgentRun): boolean {
  return run.repliedAt !== undefined || (run.status === 'completed' && run.fallback === undefined);
}
