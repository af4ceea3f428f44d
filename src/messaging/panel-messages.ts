import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { journalEventSchema } from '../records/journal';
import { reviewDecisionSchema } from '../records/task-review';
import { GUIDANCE_MAX_CHARS } from '../records/guidance-note';

/** The name of the `runtime.Port` the side panel opens to the background. */
export const PANEL_PORT_NAME = 'panel';

const runId = z.string().min(1).max(200);
/** Run ids one `runs-deleted` message names at most; a larger deletion takes several messages. */
export const RUNS_DELETED_PER_MESSAGE = 500;
const origin = z.string().min(1).max(500);

/**
 * What the side panel says to the background over its Port. One subscription per Port at a time:
 * a new `subscribe-*` replaces the previous one.
 */
export const panelToBackgroundSchema = lazySchema(() => z.discriminatedUnion('type', [
  /** Live journal events of one run. */
  z.strictObject({ type: z.literal('subscribe-run'), runId }),
  /** Live journal events of every run of an origin (the panel follows the latest one). */
  z.strictObject({ type: z.literal('subscribe-origin'), origin }),
  z.strictObject({ type: z.literal('unsubscribe') }),
  z.strictObject({ type: z.literal('cancel-run'), runId }),
  z.strictObject({ type: z.literal('cancel-task'), runId, taskId: z.string().min(1).max(200) }),
  /** Approve, edit or discard a result waiting for review; taken only from the side panel page itself. */
  z.strictObject({ type: z.literal('review-task'), runId, taskId: z.string().min(1).max(200), decision: reviewDecisionSchema }),
  /** A note for the root (no `taskId`) or a running task's next model request; side panel only. */
  z.strictObject({ type: z.literal('send-guidance'), runId, taskId: z.string().min(1).max(200).optional(), text: z.string().min(1).max(GUIDANCE_MAX_CHARS) }),
  /** The Run button: start a helper in this run; side panel only. */
  z.strictObject({ type: z.literal('run-agent'), runId, agentId: z.string().min(1).max(64) }),
  /** Apply (write through the page's saveWorldInfo) or discard a helper's lore proposal; side panel page only. */
  z.strictObject({ type: z.literal('decide-lore'), runId, proposalId: z.string().min(1).max(200), decision: z.enum(['apply', 'discard']) }),
]));
export type PanelToBackground = z.infer<typeof panelToBackgroundSchema>;

/** What the background says to the side panel. */
export const backgroundToPanelSchema = lazySchema(() => z.discriminatedUnion('type', [
  /** A journal event of a subscribed run, as stored (the panel re-reads the records it touches). */
  z.strictObject({ type: z.literal('journal-event'), event: journalEventSchema }),
  /** Runs deleted (the retention setting, a site's storage quota, another page): history drops them. */
  z.strictObject({ type: z.literal('runs-deleted'), runIds: z.array(runId).min(1).max(RUNS_DELETED_PER_MESSAGE) }),
  /** A message the panel sent was refused; `message` says why and what to do. */
  z.strictObject({ type: z.literal('panel-error'), code: z.string().max(100), message: z.string().max(2_000) }),
  /**
   * Broadcast with `runtime.sendMessage` when the background (re)starts: an open panel whose Port
   * closed with the old service worker connects again now, instead of waking it on a timer.
   */
  z.strictObject({ type: z.literal('panel-service-ready') }),
]));
export type BackgroundToPanel = z.infer<typeof backgroundToPanelSchema>;

/** Parses one message from the panel; `undefined` when it is not a valid panel message. */
export function parsePanelMessage(message: unknown): PanelToBackground | undefined {
  const parsed = panelToBackgroundSchema.safeParse(message);
  return parsed.success ? parsed.data : undefined;
}

/** Parses one message from the background; `undefined` when it is not a valid background message. */
export function parseBackgroundMessage(message: unknown): BackgroundToPanel | undefined {
  const parsed = backgroundToPanelSchema.safeParse(message);
  return parsed.success ? parsed.data : undefined;
}
