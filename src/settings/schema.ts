import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { allowableToolNames } from './tool-names';

// Composite schemas are built on first use (`lazySchema`): a worker start builds none it does not need (docs/performance.md).

/** The settings document version this build writes and reads. History: 1 — first version. */
export const SETTINGS_VERSION = 1;

const id = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'use lowercase letters, digits and dashes, starting with a letter or digit');

/** How hard a reasoning model thinks, in OpenAI's words (SillyTavern's `min` is `minimal`, its `max` is `high`). */
export const reasoningEffortSchema = z.enum(['minimal', 'low', 'medium', 'high']);

/**
 * An agent's own sampling (its preset). Each field goes only where the call's source takes it
 * (src/model/sampling-sources.ts); the rest is dropped, and the side panel's task row says so.
 */
export const samplingSchema = lazySchema(() => z.strictObject({
  temperature: z.number().min(0).max(2).optional(),
  top_p: z.number().min(0).max(1).optional(),
  top_k: z.number().int().min(0).max(1_000).optional(),
  min_p: z.number().min(0).max(1).optional(),
  frequency_penalty: z.number().min(-2).max(2).optional(),
  presence_penalty: z.number().min(-2).max(2).optional(),
  repetition_penalty: z.number().min(0).max(3).optional(),
  max_tokens: z.number().int().min(1).max(1_000_000).optional(),
  seed: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  reasoning_effort: reasoningEffortSchema.optional(),
}));
export type Sampling = z.infer<typeof samplingSchema>;

export const modelBindingSchema = lazySchema(() => z.discriminatedUnion('binding', [
  z.strictObject({
    binding: z.literal('host'),
    /** Another model of the page's own source (the request's `model` field); absent: the page's model. */
    model: z.string().min(1).max(200).optional(),
    sampling: samplingSchema.optional(),
  }),
  z.strictObject({
    binding: z.literal('hostProfile'),
    /**
     * A SillyTavern Connection Manager profile, by the name the user gave it there. The call still
     * runs in the page with the page's session; the profile decides source, model and endpoint.
     */
    profileName: z.string().trim().min(1).max(100),
    sampling: samplingSchema.optional(),
  }),
  z.strictObject({
    binding: z.literal('connection'),
    connectionId: id,
    model: z.string().min(1).max(200).optional(),
    sampling: samplingSchema.optional(),
  }),
]));
export type ModelBinding = z.infer<typeof modelBindingSchema>;

/**
 * How an endpoint gets tools: `auto` sends native `tools` and switches to `prompted` (tools written
 * into the system text, calls read from the model's text) when the endpoint refuses them.
 */
export const toolProtocolSchema = z.enum(['auto', 'native', 'prompted']);
export type ToolProtocol = z.infer<typeof toolProtocolSchema>;

export const connectionSchema = lazySchema(() => z.strictObject({
  id,
  label: z.string().max(200).default(''),
  baseURL: z.url({ protocol: /^https?$/ }),
  apiKey: z.string().max(4_096).default(''),
  defaultModel: z.string().min(1).max(200),
  maxConcurrency: z.number().int().min(1).max(32).default(2),
  toolProtocol: toolProtocolSchema.default('auto'),
}));
export type Connection = z.infer<typeof connectionSchema>;

/**
 * When an agent runs (issue 25): `when asked` (the writer delegates it), `every turn` or `every N turns`
 * (Retinue starts it before the writer's first call), `after the reply` (Retinue starts it once the
 * reply is out; its result reaches the next turn), `on demand` (only from the side panel's Run button).
 * Written as words so agent files and the options page read the same; see src/runtime/cadence.ts.
 */
export const runsSchema = lazySchema(() => z.union([
  z.enum(['when asked', 'every turn', 'after the reply', 'on demand']),
  z.string().regex(/^every (?:[2-9]|[1-9][0-9]) turns$/, 'write "when asked", "every turn", "every N turns" (N from 2 to 99), "after the reply" or "on demand"'),
]));
export type Runs = z.infer<typeof runsSchema>;

export const profileSchema = lazySchema(() => z.strictObject({
  id,
  name: z.string().min(1).max(100),
  /** For agents: what this agent is good for, read by the agent choosing whom to delegate to. */
  description: z.string().min(1).max(2_000),
  systemPrompt: z.string().max(50_000),
  model: modelBindingSchema.default({ binding: 'host' }),
  tools: z.strictObject({ allow: z.array(z.enum(allowableToolNames)).max(allowableToolNames.length) }).default({ allow: [] }),
  delegation: z
    .strictObject({
      canDelegate: z.boolean().default(false),
      callable: z.boolean().default(true),
      allowNestedDelegation: z.boolean().default(false),
      /** Agent ids this profile may delegate to; absent means every callable agent. */
      allowedAgents: z.array(id).optional(),
    })
    .default({ canDelegate: false, callable: true, allowNestedDelegation: false }),
  budget: z
    .strictObject({
      maxRounds: z.number().int().min(1).max(100).default(8),
      maxToolCalls: z.number().int().min(0).max(500).default(16),
      timeoutMs: z.number().int().min(1_000).max(3_600_000).optional(),
      /** The root's profile only: tokens one run (root and tasks) may use; wins over `defaults.maxRunTokens`. */
      maxRunTokens: z.number().int().min(1_000).max(100_000_000).optional(),
    })
    .default({ maxRounds: 8, maxToolCalls: 16 }),
  context: z
    .strictObject({ recentChatMessages: z.number().int().min(0).max(50).default(0) })
    .default({ recentChatMessages: 0 }),
  /** `ask`: a finished result waits in the side panel for the user to approve, edit or discard it. */
  review: z.enum(['none', 'ask']).default('none'),
  /** When this agent runs (see `runsSchema`); absent in older documents: `when asked`. */
  runs: runsSchema.default('when asked'),
}));
export type AgentProfile = z.infer<typeof profileSchema>;
/** A profile as a user (or a built-in's source file) writes it: defaults may be left out. */
export type AgentProfileInput = z.input<typeof profileSchema>;

function canonicalOrigin(origin: string): string | undefined {
  try {
    return new URL(origin).origin;
  } catch {
    return undefined;
  }
}

/** A host name of letters, digits, dashes and dots, or a bracketed IPv6 address: no wildcards. */
const EXACT_HOST = /^(?:\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*)$/;

/** Whether the origin names one host exactly (a `*` would register the page hook on many sites). */
function hasExactHost(origin: string): boolean {
  try {
    return EXACT_HOST.test(new URL(origin).hostname);
  } catch {
    return false;
  }
}

export const adapterIdSchema = z.enum(['auto', 'openai-chat', 'sillytavern']);
export type AdapterSetting = z.infer<typeof adapterIdSchema>;

/**
 * Milliseconds from a turn's start until the root must reply with what it has; helpers still
 * working keep running after the reply. 0 turns it off (the root waits for its helpers).
 */
export const replyDeadlineMsSchema = z.number().int().min(0).max(600_000);

export const siteSchema = lazySchema(() => z.strictObject({
  /** Scheme, host and port, e.g. `http://127.0.0.1:8000`. */
  origin: z
    .string()
    .max(300)
    .regex(/^https?:\/\/[^/\s]+$/i, 'an origin is scheme://host[:port] with no path, e.g. http://127.0.0.1:8000')
    .superRefine((origin, context) => {
      // Written exactly as browsers report `location.origin`, so a site matches its pages.
      const canonical = canonicalOrigin(origin);
      if (canonical !== undefined && !hasExactHost(origin)) {
        context.addIssue({ code: 'custom', message: 'an origin names one exact host: no wildcards such as *, e.g. https://chat.example.com' });
      } else if (canonical !== undefined && canonical !== origin) {
        context.addIssue({ code: 'custom', message: `write it as the browser does: "${canonical}"` });
      }
    }),
  enabled: z.boolean().default(true),
  adapter: adapterIdSchema.default('auto'),
  rootProfileId: id.optional(),
  /** How the page's own endpoint gets tools (the `host` binding); absent means `auto`. */
  toolProtocol: toolProtocolSchema.optional(),
  /** This site's reply deadline in ms (0: off); absent means `defaults.replyDeadlineMs`. */
  replyDeadlineMs: replyDeadlineMsSchema.optional(),
}));
export type SiteSettings = z.infer<typeof siteSchema>;

export const defaultsSchema = lazySchema(() => z.strictObject({
  rootProfileId: id.default('root'),
  maxRunningChildren: z.number().int().min(1).max(16).default(3),
  maxTasksPerRun: z.number().int().min(1).max(64).default(8),
  /** How deep delegation may go: 1 = only the root delegates; 2 = the root's children may delegate once more. */
  maxDepth: z.number().int().min(1).max(4).default(2),
  awaitTimeoutMs: z.number().int().min(1_000).max(300_000).default(120_000),
  retentionDays: z.number().int().min(1).max(3_650).default(30),
  /** Tokens one run (root and tasks) may use, unless the root's profile sets its own; absent: no cap. */
  maxRunTokens: z.number().int().min(1_000).max(100_000_000).optional(),
  replyDeadlineMs: replyDeadlineMsSchema.default(0),
}));
export type SettingsDefaults = z.infer<typeof defaultsSchema>;

/**
 * The whole settings document, stored in `browser.storage.local` under `settings`, and the format
 * of import and export. Built-in profiles are not stored here unless overridden by id.
 */
export const settingsSchema = lazySchema(() => z.strictObject({
  version: z.literal(SETTINGS_VERSION),
  /** The global switch: false turns Retinue off on every site. */
  enabled: z.boolean().default(true),
  connections: z.array(connectionSchema).default([]),
  profiles: z.array(profileSchema).default([]),
  sites: z.array(siteSchema).default([]),
  defaults: defaultsSchema.default(defaultsSchema.parse({})),
}));
export type Settings = z.infer<typeof settingsSchema>;
/** A document as a user writes it: defaults may be left out. */
export type SettingsInput = z.input<typeof settingsSchema>;
