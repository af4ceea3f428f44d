import { z } from 'zod';
import { lazySchema } from '../lazy-schema';

/** One file of a run's workspace tree, keyed by [runId, path] with a normalised physical path. */
export const workspaceFileSchema = lazySchema(() => z.object({
  runId: z.string(),
  path: z.string(),
  content: z.string(),
  updatedAt: z.number(),
}));
export type WorkspaceFile = z.infer<typeof workspaceFileSchema>;
