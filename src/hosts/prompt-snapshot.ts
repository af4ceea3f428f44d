import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { SNAPSHOT_LIMITS } from './snapshot-limits';

export { SNAPSHOT_LIMITS } from './snapshot-limits';

const contentPartSchema = lazySchema(() => z.looseObject({ type: z.string() }));

export const snapshotMessageSchema = lazySchema(() => z.looseObject({
  role: z.enum(['system', 'user', 'assistant', 'tool', 'developer']),
  content: z.union([z.string(), z.array(contentPartSchema), z.null()]).optional(),
  name: z.string().optional(),
}));
export type SnapshotMessage = z.infer<typeof snapshotMessageSchema>;

/**
 * A chat turn as the page asked for it: an OpenAI chat-completions request body. Stored as the run's
 * `input/prompt-snapshot.json`; the root loop starts from its messages and sampling parameters, and
 * `chat.read` reads the conversation from it. Host-specific fields (SillyTavern's source, custom URL)
 * pass through untouched.
 */
export const promptSnapshotSchema = lazySchema(() => z.looseObject({
  messages: z.array(snapshotMessageSchema).min(1).max(SNAPSHOT_LIMITS.maxMessages),
  model: z.string().max(200).optional(),
  stream: z.boolean().optional(),
  temperature: z.number().optional(),
  top_p: z.number().optional(),
  max_tokens: z.number().int().optional(),
  presence_penalty: z.number().optional(),
  frequency_penalty: z.number().optional(),
  stop: z.union([z.string(), z.array(z.string())]).optional(),
}));
export type PromptSnapshot = z.infer<typeof promptSnapshotSchema>;

/** The path of the snapshot inside the run workspace. */
export const PROMPT_SNAPSHOT_PATH = 'input/prompt-snapshot.json';
