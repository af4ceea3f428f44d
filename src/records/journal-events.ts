import { z } from 'zod';
import { lazyRecord, lazySchema } from '../lazy-schema';

/**
 * The data of each journal event type, one schema per type: events are written through these and
 * read through them (the side panel's cost line, task costs, timeline and reasoning all narrow on
 * `type`). Every field is optional and unknown fields are kept, so events stored by earlier versions
 * (with fewer or other fields) still read. To add an event type, add its schema here: the journal's
 * union and its types follow. Names are kebab-case noun-verb. Built on first use (docs/performance.md).
 */

/** An error as events carry it: a `RetinueError`'s code and message. */
const errorData = lazySchema(() => z.looseObject({ code: z.string().optional(), message: z.string().optional() }));

/** Token and step counts as events carry them; counts a provider did not give read as 0. */
export const journalUsageSchema = lazySchema(() => z.looseObject({
  rounds: z.number().optional(),
  toolCalls: z.number().optional(),
  promptTokens: z.number().nonnegative().default(0),
  completionTokens: z.number().nonnegative().default(0),
  totalTokens: z.number().optional(),
  /** Retinue estimated the counts because the provider gave none. */
  estimated: z.boolean().optional(),
}));

const status = z.string().optional();

export const journalEventDataSchemas = lazyRecord(() => ({
  'run-start': z.looseObject({ origin: z.string().optional(), adapter: z.string().optional(), rootProfileId: z.string().optional(), title: z.string().optional() }),
  'run-end': z.looseObject({
    status,
    usage: journalUsageSchema.optional(),
    error: errorData.optional(),
    /** The page got its own generation instead: why. */
    fallback: z.looseObject({ code: z.string().optional(), reason: z.string().optional() }).optional(),
  }),
  /** A run taken up again after the service worker restarted. */
  'run-resume': z.looseObject({ tasks: z.number().optional() }),
  /** An ended run taken up again for a helper the user ran between turns (the side panel's Run button). */
  'run-reopen': z.looseObject({ agentId: z.string().optional() }),
  /** The reply went to the page while helpers still worked (a reply deadline passed). */
  'run-reply': z.looseObject({ stillWorking: z.number().optional() }),
  'invocation-start': z.looseObject({ profileId: z.string().optional(), kind: z.string().optional() }),
  'invocation-end': z.looseObject({ status, usage: journalUsageSchema.optional(), error: errorData.optional() }),
  /** `pageModel` (the model the page names, '' when none) marks a call to the page's own model. */
  'model-call-start': z.looseObject({ round: z.number().optional(), model: z.string().optional(), pageModel: z.string().optional(), tools: z.array(z.string()).optional() }),
  /** `ok: false` with `error` for a failed call (no usage: not a billed call). */
  'model-call-end': z.looseObject({
    round: z.number().optional(),
    ok: z.boolean().optional(),
    finishReason: z.string().nullable().optional(),
    toolCalls: z.number().optional(),
    usage: journalUsageSchema.optional(),
    toolProtocol: z.string().optional(),
    /** Set when another model than the start named answered (a keyed budget spent: the page's own). */
    model: z.string().optional(),
    pageModel: z.string().optional(),
    /** What the model thought apart from its answer, shown folded in the side panel. */
    reasoning: z.string().optional(),
    error: errorData.optional(),
  }),
  'model-call-retry': z.looseObject({
    round: z.number().optional(),
    attempt: z.number().optional(),
    delayMs: z.number().optional(),
    reason: z.string().optional(),
    status: z.number().optional(),
  }),
  /** `replay`: a call answered before a restart, whose result is given again. */
  'tool-call-start': z.looseObject({ tool: z.string().optional(), callId: z.string().optional(), replay: z.boolean().optional() }),
  'tool-call-end': z.looseObject({
    tool: z.string().optional(),
    callId: z.string().optional(),
    ok: z.boolean().optional(),
    error: errorData.optional(),
    /** Whether the call counted against the tool-call budget. */
    counted: z.boolean().optional(),
  }),
  'task-queued': z.looseObject({
    agentId: z.string().optional(),
    workspaceKey: z.string().optional(),
    title: z.string().optional(),
    budget: z.looseObject({}).optional(),
  }),
  'task-start': z.looseObject({ workspaceKey: z.string().optional(), agentId: z.string().optional() }),
  'task-end': z.looseObject({
    status,
    resultStatus: z.string().optional(),
    workspaceKey: z.string().optional(),
    usage: journalUsageSchema.optional(),
    error: errorData.optional(),
  }),
  /** A result is held for the user's review. */
  'review-start': z.looseObject({ workspaceKey: z.string().optional() }),
  /** `lapse`: nobody decided in time, so the result counts as discarded. */
  'review-end': z.looseObject({ workspaceKey: z.string().optional(), state: z.string().optional(), lapse: z.string().optional() }),
  /**
   * A `chat.search` call: what it searched for (and within which messages), how many messages
   * matched and the numbers of those it listed. The side panel shows it as what a task looked up.
   */
  'chat-searched': z.looseObject({
    query: z.string().optional(),
    role: z.string().optional(),
    from: z.number().optional(),
    to: z.number().optional(),
    found: z.number().optional(),
    messages: z.array(z.number()).optional(),
  }),
  /** A `chat.read_messages` call: the numbers of the messages it read; `cut` when some were cut or left out. */
  'chat-messages-read': z.looseObject({
    from: z.number().optional(),
    to: z.number().optional(),
    messages: z.array(z.number()).optional(),
    cut: z.boolean().optional(),
  }),
  /** The run used its spend cap (`budget.maxRunTokens`): no new tasks, the rest wrap up. */
  'token-cap-reached': z.looseObject({ cap: z.number().optional(), totalTokens: z.number().optional() }),
  /** A helper its cadence called for was not started: the ledger holds its result already, or a limit refused it. */
  'cadence-skip': z.looseObject({ agentId: z.string().optional(), reason: z.string().optional() }),
  /** The user sent a note from the side panel to a running invocation (the root or a task's child). */
  'guidance-sent': z.looseObject({ noteId: z.string().optional(), text: z.string().optional() }),
  /** A note went into that invocation's next model request as a user message. */
  'guidance-applied': z.looseObject({ noteId: z.string().optional(), round: z.number().optional() }),
  /** A helper suggested a lorebook change (`uid`: the entry it edits; absent: a new one); only the user's Apply writes it. */
  'lore-proposal': z.looseObject({
    proposalId: z.string().optional(),
    workspaceKey: z.string().optional(),
    book: z.string().optional(),
    uid: z.number().optional(),
    keys: z.array(z.string()).optional(),
    content: z.string().optional(),
    reason: z.string().optional(),
    before: z.looseObject({ keys: z.array(z.string()).optional(), content: z.string().optional(), title: z.string().optional() }).optional(),
  }),
  /** The user applied (written through the page's saveWorldInfo, as entry `uid` of `book`) or discarded a lore proposal. */
  'lore-proposal-end': z.looseObject({
    proposalId: z.string().optional(),
    state: z.string().optional(),
    book: z.string().optional(),
    uid: z.number().optional(),
    created: z.boolean().optional(),
  }),
  /** What a lore tool looked up: entry references (and a search's query), for the side panel. */
  'lore-lookup': z.looseObject({ tool: z.string().optional(), labels: z.array(z.string()).optional(), workspaceKey: z.string().optional() }),
  /** The run's stored history reached its byte cap (`historyCapBytes`): no new tasks, the rest wrap up. */
  'history-cap-reached': z.looseObject({ cap: z.number().optional(), historyBytes: z.number().optional() }),
}) satisfies Record<string, z.ZodType<Record<string, unknown>>>);
