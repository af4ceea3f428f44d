import { ConfigurationError } from '../errors';
import { promptSnapshotSchema, SNAPSHOT_LIMITS, type PromptSnapshot } from './prompt-snapshot';

/**
 * Request fields a run's snapshot never keeps: the page's own tools (their code lives in the page, so
 * they are not offered inside a run), multi-choice and log-prob options a run cannot honour, and
 * credentials some hosts put in the body. The page hook keeps the full body for host calls.
 */
const DROPPED_FIELDS = [
  'tools',
  'tool_choice',
  'functions',
  'function_call',
  'n',
  'logprobs',
  'top_logprobs',
  'stream_options',
  'proxy_password',
  'reverse_proxy',
  'custom_include_headers',
  'api_key',
] as const;

/**
 * Reads a page's chat-completions request body into a prompt snapshot: validated, size-capped, with
 * the fields above removed. Throws a ConfigurationError naming what was wrong.
 */
export function readPromptSnapshot(body: unknown): PromptSnapshot {
  const size = JSON.stringify(body ?? null).length;
  if (size > SNAPSHOT_LIMITS.maxChars) {
    throw new ConfigurationError(
      'snapshot-too-large',
      `The chat request is ${size} characters long; Retinue takes at most ${SNAPSHOT_LIMITS.maxChars}. Shorten the context the page sends.`,
    );
  }
  const parsed = promptSnapshotSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') || 'the request body';
    throw new ConfigurationError(
      'snapshot-invalid',
      `The chat request cannot be read as an OpenAI chat-completions body: ${where}: ${issue?.message ?? 'invalid'}.`,
    );
  }
  const snapshot: Record<string, unknown> = { ...parsed.data };
  for (const field of DROPPED_FIELDS) delete snapshot[field];
  return snapshot as PromptSnapshot;
}
