import { z } from 'zod';

/** Journal event types: kebab-case noun-verb. */
export const journalEventTypeSchema = z.enum([
  'run-start',
  'run-end',
  'invocation-start',
  'invocation-end',
  'model-call-start',
  'model-call-end',
  'model-call-retry',
  'tool-call-start',
  'tool-call-end',
  'task-queued',
  'task-start',
  'task-end',
  'run-resume',
  /** The run used its spend cap (`budget.maxRunTokens`): no new tasks, the rest wrap up. */
  'token-cap-reached',
  /** The reply went to the page while helpers still worked (a reply deadline passed). */
  'run-reply',
]);
export type JournalEventType = z.infer<typeof journalEventTypeSchema>;

/** One append-only journal entry; `seq` counts from 1 within its run. */
export const journalEventSchema = z.object({
  runId: z.string(),
  seq: z.number().int().positive(),
  time: z.number(),
  type: journalEventTypeSchema,
  invocationId: z.string().optional(),
  taskId: z.string().optional(),
  data: z.record(z.string(), z.unknown()).default({}),
});
export type JournalEvent = z.infer<typeof journalEventSchema>;
