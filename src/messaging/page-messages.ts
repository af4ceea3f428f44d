import { z } from 'zod/mini';
import { builtOnFirstUse } from '../built-on-first-use';
import { SNAPSHOT_LIMITS } from '../hosts/snapshot-limits';
import { MAX_LISTED_PROFILES } from './connection-profile-messages';

/**
 * Messages between the page hook (MAIN world, untrusted) and the bridge (isolated world), sent as
 * JSON text over a MessageChannel. Text keeps every browser's cross-world cloning out of the picture
 * and lets the bridge refuse an oversized message before parsing it.
 */

export { BRIDGE_READY, PAGE_HOOK_CONNECT } from './page-channel-names';

/** The largest message text the bridge reads: a chat turn at the snapshot cap, with room for JSON. */
export const PAGE_MESSAGE_MAX_CHARS = SNAPSHOT_LIMITS.maxChars + 100_000;
/** One relayed chunk of a host call's response body. */
export const HOST_CALL_CHUNK_MAX_CHARS = 1_000_000;

/**
 * A request body: any JSON object (not an array), its fields as they are. The same values a
 * `z.record(z.string(), z.unknown())` takes, without the record schema in the bridge's bundle.
 */
export const jsonObjectSchema = z.looseObject({});

/** Everything the page may say. Anything else is dropped. Built on its first use (built-on-first-use.ts). */
export const pageToBridgeMessageSchema = builtOnFirstUse(() => {
  const requestId = z.string().check(z.minLength(1), z.maxLength(64));
  const callId = z.string().check(z.minLength(1), z.maxLength(64));
  const status = z.int().check(z.minimum(100), z.maximum(599));
  return z.discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('run-start'),
      requestId,
      adapter: z.enum(['openai-chat', 'sillytavern']),
      body: jsonObjectSchema,
      /** SillyTavern's open chat as the page hook read it (TavernChatState); the bridge makes the chat identity of it. */
      tavern: z.catch(z.optional(jsonObjectSchema), undefined),
    }),
    z.strictObject({ type: z.literal('run-abort'), requestId }),
    z.strictObject({
      type: z.literal('host-call-start'),
      requestId,
      callId,
      status,
      /** The reason phrase, by which the bridge tells the model's status behind the host's (hostCallStatus); the message's cap bounds it. */
      statusText: z.optional(z.string()),
      contentType: z.string().check(z.maxLength(200)),
      /** The model's `Retry-After` header, so a rate-limited host call waits as long as it is asked to. */
      retryAfter: z.optional(z.string().check(z.maxLength(100))),
    }),
    z.strictObject({ type: z.literal('host-call-chunk'), requestId, callId, text: z.string().check(z.maxLength(HOST_CALL_CHUNK_MAX_CHARS)) }),
    z.strictObject({ type: z.literal('host-call-end'), requestId, callId }),
    z.strictObject({ type: z.literal('host-call-error'), requestId, callId, message: z.string().check(z.maxLength(2_000)) }),
    /**
     * SillyTavern's connection profiles and completion presets as the page hook read them
     * (TavernProfilesState: flat records of strings and numbers), answering `connection-profiles-request`;
     * the bridge makes sense of them (connection-profiles.ts, profile-preset.ts).
     */
    z.strictObject({
      type: z.literal('connection-profiles'),
      queryId: requestId,
      profiles: z.optional(z.array(jsonObjectSchema).check(z.maxLength(MAX_LISTED_PROFILES))),
      apiMap: z.optional(jsonObjectSchema),
      presets: z.optional(jsonObjectSchema),
    }),
    /** The page's own answer to a pass-through after a stream began, when it is not a stream: the bridge writes it as events. */
    z.strictObject({ type: z.literal('pass-through-reply'), requestId, status, text: z.string().check(z.maxLength(HOST_CALL_CHUNK_MAX_CHARS)) }),
  ]);
});
export type PageToBridgeMessage = z.infer<ReturnType<typeof pageToBridgeMessageSchema>>;

/** Everything the bridge says to the page hook (trusted by the hook; never settings or other runs). */
export type BridgeToPageMessage =
  | { type: 'connected' }
  | { type: 'pass-through'; requestId: string }
  | { type: 'response-start'; requestId: string; status: number; contentType: string }
  | { type: 'response-chunk'; requestId: string; text: string }
  /** `hostCallsContinue`: the reply is complete, but helpers of the run still make host calls until `run-closed`. */
  | { type: 'response-end'; requestId: string; hostCallsContinue?: boolean }
  | { type: 'run-closed'; requestId: string }
  /** A helper run between turns makes host calls under `requestId` (with the last chat turn's endpoint and headers) until `run-closed`. */
  | { type: 'host-calls-open'; requestId: string }
  /** `body`: the whole body, built by the bridge (on the page's connection or a SillyTavern connection profile). */
  | { type: 'host-call'; requestId: string; callId: string; body: Record<string, unknown> }
  | { type: 'host-call-abort'; requestId: string; callId: string }
  | { type: 'connection-profiles-request'; queryId: string };

/**
 * The request id of a chat turn, read from the message text's opening only (the page hook writes
 * `type` and `requestId` first), whatever the text's size: the bridge learns that a turn came, and
 * whether the site is on, before it reads (or refuses to read) the rest. Undefined for anything else.
 */
export function chatTurnRequestId(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  const opening = /^\{"type":"run-start","requestId":"([A-Za-z0-9_-]{1,64})"/.exec(text.slice(0, 200));
  return opening?.[1];
}

/** Whether a message text is over {@link PAGE_MESSAGE_MAX_CHARS}: too large to read. */
export function isOversizedPageMessage(text: string): boolean {
  return text.length > PAGE_MESSAGE_MAX_CHARS;
}

/**
 * Parses one message text from the page: undefined when it is oversized (checked before any
 * parsing, so a page cannot make the bridge parse huge texts), not JSON, or not one of the messages
 * above.
 */
export function parsePageMessage(text: unknown): PageToBridgeMessage | undefined {
  if (typeof text !== 'string' || isOversizedPageMessage(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = pageToBridgeMessageSchema().safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
