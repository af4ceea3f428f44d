import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { budgetSchema } from './budget';
import { taskRanWithSchema } from './task-ran-with';
import { taskReviewSchema } from './task-review';
import { usageSchema } from './usage';

export const taskStatusSchema = z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']);
export type TaskStatus = z.infer<typeof taskStatusSchema>;

/** A string, or an object rendered as markdown for the child. */
export const taskTextSchema = lazySchema(() => z.union([z.string(), z.record(z.string(), z.unknown())]));

export const taskBriefSchema = lazySchema(() => z.object({
  title: z.string().min(1).max(200),
  objective: z.string().min(1).max(8_000),
  context: taskTextSchema.optional(),
  expectedOutput: taskTextSchema.optional(),
}));
export type TaskBrief = z.infer<typeof taskBriefSchema>;

/** A return-mode task that one invocation delegated to another agent. */
export const agentTaskRecordSchema = lazySchema(() => z.object({
  id: z.string(),
  runId: z.string(),
  parentInvocationId: z.string(),
  childInvocationId: z.string(),
  targetProfileId: z.string(),
  /** The task's name for models: the target agent's id, then `-002`, `-003` for repeats in a run. */
  workspaceKey: z.string(),
  continuation: z.enum(['returnToParent', 'transferControl']),
  status: taskStatusSchema,
  task: taskBriefSchema,
  budget: budgetSchema,
  /** Physical path of the structured capsule, `agent-results/<child-invocation-id>.json`. */
  resultRef: z.string().optional(),
  /** The capsule's own status, when there is one: a partial result keeps task status `completed`. */
  resultStatus: z.enum(['completed', 'partial', 'failed']).optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  /** The parent's tool call that created this task; makes a re-dispatched `agent.delegate` idempotent on resume. */
  toolCallId: z.string().optional(),
  /**
   * The parent's round that made that call: with the call id it names the call (providers may number
   * calls per turn). Absent on records from before it was kept: the call id alone names them.
   */
  toolCallTurn: z.number().int().nonnegative().optional(),
  /** When the parent was given this task's result (by `agent.await`); it is not given twice. */
  resultDeliveredAt: z.number().optional(),
  /** When the parent was told this task ended (a "meanwhile finished" line, or its own cancel); told once. */
  announcedAt: z.number().optional(),
  /** Before 2026-12: the one later run this earlier result was offered to; read as `offeredToRunIds: [it]`. */
  carriedToRunId: z.string().optional(),
  /**
   * The later runs of the conversation this earlier result was offered to (earlier-results.ts). It is
   * used once one of them ended with a reply; a run that fell open or was stopped has not used it.
   */
  offeredToRunIds: z.array(z.string()).max(100).optional(),
  /**
   * When the task runs out of time: set at its first model call to that time plus its timeout, and
   * pushed back by the time it then spends waiting for a connection slot or a retry. Kept across a restart.
   */
  deadlineAt: z.number().optional(),
  /** The user's look at the result before the parent gets it (profile `review: "ask"`); see task-review.ts. */
  review: taskReviewSchema.optional(),
  /**
   * Why the task ran (issue 25): `agent` (the invocation that delegated it asked), `cadence` (its
   * profile's `runs`, as it read when started, in `cadence`), `user` (the side panel's Run button).
   * Absent on records from before it was kept: `agent`.
   */
  startedBy: z.enum(['agent', 'cadence', 'user']).optional(),
  cadence: z.string().max(40).optional(),
  /** The model and the preset or sampling it ran with (task-ran-with.ts). */
  ranWith: taskRanWithSchema.optional(),
  createdAt: z.number(),
  startedAt: z.number().optional(),
  endedAt: z.number().optional(),
  usage: usageSchema,
}));
export type AgentTaskRecord = z.infer<typeof agentTaskRecordSchema>;
