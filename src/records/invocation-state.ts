import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { agentInvocationSchema } from './invocation';

/**
 * An invocation as the store keeps it (store version 2): its state only. The history lives in its own
 * `messages` records, appended as the loop goes; `messageCount` says how many belong to it, so a read
 * assembles exactly the history that was saved and a write appends only what is new.
 */
export const invocationStateSchema = lazySchema(() => agentInvocationSchema.unwrap().omit({ messages: true }).extend({
  messageCount: z.number().int().nonnegative(),
}));
export type InvocationState = z.infer<typeof invocationStateSchema>;
