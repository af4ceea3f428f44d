import { z } from 'zod';
import { lazySchema } from '../lazy-schema';

/** Characters one agent's memory may hold in one conversation, all its files together. */
export const MAX_MEMORY_CHARS = 32_000;
/** Files one agent's memory may hold. */
export const MAX_MEMORY_FILES = 32;

/** One file of an agent's memory; `path` is relative to the agent's `memory/` folder (`state.md`, `people/mira.md`). */
export const memoryFileSchema = lazySchema(() => z.strictObject({
  path: z.string().min(1).max(256),
  content: z.string().max(MAX_MEMORY_CHARS),
}));
export type MemoryFile = z.infer<typeof memoryFileSchema>;

/**
 * The memory of every agent of a conversation as it stood after one reply (docs/agent-memory.md).
 * `lineKey` names the chat up to and including that reply, so the run that continues it (and only
 * that run's line: not a sibling swipe's) starts from it. `agents` maps an agent's id to its files.
 */
export const memoryVersionSchema = lazySchema(() => z.strictObject({
  conversationId: z.string().min(1).max(200),
  lineKey: z.string().min(1).max(100),
  /** The run whose reply made this version; deleting the run deletes it. */
  runId: z.string().min(1),
  createdAt: z.number(),
  /** When the user last edited or cleared an agent's memory in the side panel. */
  editedAt: z.number().optional(),
  agents: z.record(z.string().min(1).max(100), z.array(memoryFileSchema).max(MAX_MEMORY_FILES)),
}));
export type MemoryVersion = z.infer<typeof memoryVersionSchema>;
