import { z } from 'zod/mini';
import { builtOnFirstUse } from '../built-on-first-use';
import { SAMPLING_FIELDS } from '../model/sampling-sources';

/**
 * SillyTavern connection profiles as Retinue sees them: what the page hook reads from the page, what
 * the bridge passes on, and what the options page asks for. Only names, sources and models (no ids,
 * server URLs, secret ids or proxies): the bridge keeps only what it needs (DESIGN.md §10).
 * Written in `zod/mini`, which tree-shakes: the bridge content script carries these schemas into
 * every enabled page (docs/performance.md); the background and UI use them as they are. The composed
 * ones are built on their first use (built-on-first-use.ts).
 */

/** The most profiles one answer carries; a page with more lists the first ones. */
export const MAX_LISTED_PROFILES = 200;

/** Why a page could not call through a SillyTavern connection profile. */
export const profileRefusalSchema = z.enum([
  'connection-manager-unavailable',
  'profile-missing',
  'profile-not-chat-completion',
  'profile-source-unsupported',
  'profile-proxy-preset',
  'profile-preset-missing',
]);

/** A SillyTavern preset's name, as the user gave it. */
export const presetNameSchema = z.string().check(z.minLength(1), z.maxLength(100));

/** Sampling as it went into a call: numbers, and `reasoning_effort` as a word. */
const sampledValuesSchema = () => z.partialRecord(z.enum(SAMPLING_FIELDS), z.union([z.number(), z.string().check(z.maxLength(20))]));

/** What a call on a connection profile ran with, as the page hook reports it: no ids or addresses. */
export const profileRanWithSchema = builtOnFirstUse(() =>
  z.strictObject({
    model: z.optional(z.string().check(z.maxLength(200))),
    preset: z.optional(presetNameSchema),
    sampling: sampledValuesSchema(),
    dropped: z.array(z.enum(SAMPLING_FIELDS)).check(z.maxLength(SAMPLING_FIELDS.length)),
  }),
);
export type ProfileRanWithMessage = z.infer<ReturnType<typeof profileRanWithSchema>>;

/** A Chat Completion source name as SillyTavern spells them (`openai`, `azure_openai`, ...). */
export const profileSourceSchema = z.string().check(z.maxLength(64), z.regex(/^[a-z0-9_-]+$/i));

const connectionProfileSummarySchema = () =>
  z.strictObject({
    name: z.string().check(z.minLength(1), z.maxLength(100)),
    source: z.optional(profileSourceSchema),
    model: z.optional(z.string().check(z.maxLength(200))),
    /** Absent when a helper can run on it. */
    refusal: z.optional(profileRefusalSchema),
  });
export type ConnectionProfileSummaryMessage = z.infer<ReturnType<typeof connectionProfileSummarySchema>>;

/** One of the page's Chat Completion presets: its name and sampling, nothing else of it (no prompts). */
const completionPresetSummarySchema = () => z.strictObject({ name: presetNameSchema, sampling: sampledValuesSchema() });
export type CompletionPresetSummary = z.infer<ReturnType<typeof completionPresetSummarySchema>>;

/** What an extension page sends a tab's bridge to learn that page's connection profiles. */
export const connectionProfilesRequestSchema = builtOnFirstUse(() => z.strictObject({ type: z.literal('connection-profiles-request') }));
export type ConnectionProfilesRequest = z.infer<ReturnType<typeof connectionProfilesRequestSchema>>;

/** The bridge's answer: the profiles (and the page's presets, at most as many), or why there are none to show. */
export const connectionProfilesAnswerSchema = builtOnFirstUse(() =>
  z.discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('profiles'),
      profiles: z.array(connectionProfileSummarySchema()).check(z.maxLength(MAX_LISTED_PROFILES)),
      presets: z.optional(z.array(completionPresetSummarySchema()).check(z.maxLength(MAX_LISTED_PROFILES))),
    }),
    /** The page is not SillyTavern, or its Connection Manager is off. */
    z.strictObject({ kind: z.literal('no-connection-manager') }),
    /** Retinue's page hook did not answer (the page is still loading, or Retinue is off for it). */
    z.strictObject({ kind: z.literal('no-answer') }),
  ]),
);
export type ConnectionProfilesAnswer = z.infer<ReturnType<typeof connectionProfilesAnswerSchema>>;
