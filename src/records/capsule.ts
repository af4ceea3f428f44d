import { z } from 'zod';
import { lazySchema } from '../lazy-schema';

export const artifactSchema = lazySchema(() => z.object({
  path: z.string().min(1).max(512),
  kind: z.string().max(64).optional(),
  role: z.string().max(200).optional(),
}));

/** What a child gives back with `task.return`; stored as `agent-results/<child-invocation-id>.json`. */
export const resultCapsuleSchema = lazySchema(() => z.object({
  taskId: z.string(),
  workspaceKey: z.string(),
  agentId: z.string(),
  title: z.string(),
  status: z.enum(['completed', 'partial', 'failed']),
  summary: z.string(),
  findings: z.array(z.string()),
  warnings: z.array(z.string()),
  suggestedNextActions: z.array(z.string()),
  questionsForCaller: z.array(z.string()),
  /** Virtual paths, as the child saw them (normalised). */
  artifacts: z.array(artifactSchema),
  confidence: z.enum(['low', 'medium', 'high']).optional(),
  createdAt: z.number(),
}));
export type ResultCapsule = z.infer<typeof resultCapsuleSchema>;

/** A stored capsule file's text read back: the capsule, or why it is none (each reader decides what that means). */
export type StoredCapsuleReading = { ok: true; capsule: ResultCapsule } | { ok: false; problem: 'not-json' | 'invalid' };

export function readStoredCapsule(text: string): StoredCapsuleReading {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'not-json' };
  }
  const parsed = resultCapsuleSchema.safeParse(value);
  return parsed.success ? { ok: true, capsule: parsed.data } : { ok: false, problem: 'invalid' };
}
