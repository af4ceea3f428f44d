import { z } from 'zod/mini';
import { builtOnFirstUse } from '../built-on-first-use';
import { pageChatIdentitySchema } from '../records/chat-identity';
import { presetNameSchema, profileRanWithSchema, profileRefusalSchema, profileSourceSchema } from './connection-profile-messages';
import { HOST_CALL_CHUNK_MAX_CHARS, jsonObjectSchema } from './page-messages';

/** The name of the `runtime.Port` the bridge opens to the background for one run. */
export const RUN_PORT_NAME = 'retinue-run';
/**
 * The bridge sends `keep-alive` this often while a run works: Chrome's service worker counts port
 * messages as activity, Firefox's event page does not. What holds the background in both browsers is its
 * own heartbeat (`src/background/background-keep-alive.ts`).
 */
export const KEEP_ALIVE_INTERVAL_MS = 15_000;

const callIdSchema = () => z.string().check(z.minLength(1), z.maxLength(64));
/** The most text one streamed reply or reasoning message carries; longer text goes in several. */
export const RUN_STREAM_TEXT_MAX_CHARS = 16_000;

/**
 * What the bridge sends the background over a run port (`zod/mini`: the bridge carries these; see
 * page-messages.ts). Each schema here is built on its first use (built-on-first-use.ts).
 */
export const bridgeToBackgroundMessageSchema = builtOnFirstUse(() => {
  const callId = callIdSchema();
  return z.discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('run-start'),
      adapter: z.enum(['openai-chat', 'sillytavern']),
      body: jsonObjectSchema,
      chat: z.optional(pageChatIdentitySchema()),
    }),
    /** After the background went away mid-run: carry on with the stored run. */
    z.strictObject({ type: z.literal('run-resume'), runId: z.string().check(z.minLength(1), z.maxLength(100)) }),
    /** The side panel's Run button between turns: run this helper on the ended run, its host calls through this page. */
    z.strictObject({ type: z.literal('run-between'), runId: z.string().check(z.minLength(1), z.maxLength(100)), agentId: z.string().check(z.minLength(1), z.maxLength(100)) }),
    /** A chat turn too large for the bridge to read: the background notes it for the side panel and passes it through. */
    z.strictObject({ type: z.literal('run-over-limit'), limit: z.literal('snapshot-size') }),
    z.strictObject({ type: z.literal('run-abort') }),
    z.strictObject({ type: z.literal('keep-alive') }),
    z.strictObject({
      type: z.literal('host-call-start'),
      callId,
      status: z.int().check(z.minimum(100), z.maximum(599)),
      contentType: z.string().check(z.maxLength(200)),
      retryAfter: z.optional(z.string().check(z.maxLength(100))),
      /** A call on a SillyTavern connection profile: the model, preset and sampling it runs with. */
      ranWith: z.optional(profileRanWithSchema()),
    }),
    z.strictObject({ type: z.literal('host-call-chunk'), callId, text: z.string().check(z.maxLength(HOST_CALL_CHUNK_MAX_CHARS)) }),
    z.strictObject({ type: z.literal('host-call-end'), callId }),
    z.strictObject({ type: z.literal('host-call-error'), callId, message: z.string().check(z.maxLength(2_000)) }),
    z.strictObject({ type: z.literal('host-call-refused'), callId, refusal: profileRefusalSchema, source: z.optional(profileSourceSchema), preset: z.optional(presetNameSchema) }),
  ]);
});
export type BridgeToBackgroundMessage = z.infer<ReturnType<typeof bridgeToBackgroundMessageSchema>>;

/** What the background sends the bridge over a run port. */
export const backgroundToBridgeMessageSchema = builtOnFirstUse(() => {
  const callId = callIdSchema();
  return z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('run-accepted'), runId: z.string() }),
    /** Not Retinue's to answer: the page hook sends the request on to the page's server. */
    z.strictObject({ type: z.literal('pass-through') }),
    z.strictObject({ type: z.literal('run-progress'), line: z.string().check(z.maxLength(500)) }),
    /** Reply text as the model writes it (streamed pages show it at once). */
    z.strictObject({ type: z.literal('run-reply-delta'), text: z.string().check(z.maxLength(RUN_STREAM_TEXT_MAX_CHARS)) }),
    /** The root's reasoning as the model writes it, for the page's reasoning channel. */
    z.strictObject({ type: z.literal('run-reasoning-delta'), text: z.string().check(z.maxLength(RUN_STREAM_TEXT_MAX_CHARS)) }),
    /** Reply text already sent belonged to a tool-calling turn: what follows starts after a break. */
    z.strictObject({ type: z.literal('run-reply-discarded') }),
    /** The run's reply; `streamed` when every word of it already went out as `run-reply-delta`. */
    z.strictObject({
      type: z.literal('run-reply'),
      reply: z.string(),
      streamed: z.optional(z.boolean()),
      /** Helpers still working after a reply deadline: the port stays open for their host calls until `run-closed`. */
      helpersWorking: z.optional(z.int().check(z.minimum(1), z.maximum(1_000))),
    }),
    /** A run that replied early has ended (its helpers are done): the bridge may close the port. */
    z.strictObject({ type: z.literal('run-closed') }),
    /** The run failed or was cancelled: `status` is the HTTP status the page gets, `message` says why. */
    z.strictObject({ type: z.literal('run-failed'), status: z.int(), message: z.string() }),
    z.strictObject({
      type: z.literal('host-call'),
      callId,
      body: jsonObjectSchema,
      /** Run the call on this SillyTavern connection profile (its name) instead of the page's own connection. */
      connectionProfile: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
    }),
    z.strictObject({ type: z.literal('host-call-abort'), callId }),
  ]);
});
export type BackgroundToBridgeMessage = z.infer<ReturnType<typeof backgroundToBridgeMessageSchema>>;

/** Host-call replies, relayed from the page hook to the background's page-relayed fetch. */
export type HostCallReplyMessage = Extract<BridgeToBackgroundMessage, { type: `host-call-${string}` }>;

/**
 * The background asks a tab of the run's site to carry a helper run between turns (a runtime
 * message to the tab): its bridge opens a run port with `run-between`. Answered `{ accepted }`.
 */
export const betweenTurnsRequestSchema = builtOnFirstUse(() =>
  z.strictObject({
    type: z.literal('run-between-request'),
    runId: z.string().check(z.minLength(1), z.maxLength(100)),
    agentId: z.string().check(z.minLength(1), z.maxLength(100)),
  }),
);
export type BetweenTurnsRequest = z.infer<ReturnType<typeof betweenTurnsRequestSchema>>;
