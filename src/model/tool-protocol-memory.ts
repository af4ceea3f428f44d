/**
 * Remembers what each endpoint+model was seen to refuse, so later calls (wrap-ups, children, later
 * runs, a run resumed after the worker restarted) speak to it right at once instead of being
 * refused again: native tools (it gets the prompted protocol), `stream_options` (left out), and the
 * context window its refusal stated (requests are trimmed to fit it); and one habit of its answers:
 * reasoning closed by a bare `</think>` (the streamed reply holds it as reasoning). The browser keeps it in
 * `browser.storage.local`; the runner keeps it in memory.
 */
import { z } from 'zod';
import { lazySchema } from '../lazy-schema';

/** The window an endpoint stated in a refusal, and how its tokens compare with Retinue's estimate. */
export const learnedContextWindowSchema = lazySchema(() => z.object({
  /** The model's window, in the endpoint's own tokens. */
  windowTokens: z.number().int().positive().max(100_000_000),
  /**
   * The endpoint's tokens per token of Retinue's estimate, measured on the refused prompt when the
   * refusal said its length; 1 when it did not.
   */
  tokensPerEstimatedToken: z.number().positive().max(100),
  /** Whether that ratio was measured (an unmeasured one needs a wider margin). */
  measured: z.boolean(),
  /** Tokens the refused request kept for the answer, when the refusal said. */
  completionTokens: z.number().int().nonnegative().max(100_000_000).optional(),
}));
export type LearnedContextWindow = z.infer<typeof learnedContextWindowSchema>;

export interface ToolProtocolMemory {
  /** Whether this endpoint+model was seen refusing native tools. */
  isPrompted(endpointKey: string): Promise<boolean>;
  /** Notes that it refused them. */
  rememberPrompted(endpointKey: string): Promise<void>;
  /** Whether this endpoint+model was seen refusing `stream_options`. */
  refusesStreamOptions(endpointKey: string): Promise<boolean>;
  /** Notes that it refused them. */
  rememberStreamOptionsRefused(endpointKey: string): Promise<void>;
  /** The context window this endpoint+model stated when it last refused a prompt as too long. */
  contextWindow(endpointKey: string): Promise<LearnedContextWindow | undefined>;
  /** Notes the window a refusal stated. */
  rememberContextWindow(endpointKey: string, window: LearnedContextWindow): Promise<void>;
  /**
   * Whether this endpoint+model was seen opening an answer with reasoning closed by a bare
   * `</think>` (its chat template opened the block in the prompt: QwQ, R1 distills).
   */
  opensWithBareThink(endpointKey: string): Promise<boolean>;
  /** Notes that it did. */
  rememberBareThink(endpointKey: string): Promise<void>;
}

/** The key of one endpoint and model: the base URL and the model id. */
export function endpointKeyOf(target: { baseURL: string; model: string }): string {
  return `${target.baseURL} ${target.model}`;
}

/** A memory for one process (the runner, tests). */
export function createInMemoryToolProtocolMemory(): ToolProtocolMemory {
  const prompted = new Set<string>();
  const streamOptionsRefused = new Set<string>();
  const windows = new Map<string, LearnedContextWindow>();
  const bareThink = new Set<string>();
  return {
    isPrompted: (endpointKey) => Promise.resolve(prompted.has(endpointKey)),
    rememberPrompted: (endpointKey) => Promise.resolve(void prompted.add(endpointKey)),
    refusesStreamOptions: (endpointKey) => Promise.resolve(streamOptionsRefused.has(endpointKey)),
    rememberStreamOptionsRefused: (endpointKey) => Promise.resolve(void streamOptionsRefused.add(endpointKey)),
    contextWindow: (endpointKey) => Promise.resolve(windows.get(endpointKey)),
    rememberContextWindow: (endpointKey, window) => Promise.resolve(void windows.set(endpointKey, window)),
    opensWithBareThink: (endpointKey) => Promise.resolve(bareThink.has(endpointKey)),
    rememberBareThink: (endpointKey) => Promise.resolve(void bareThink.add(endpointKey)),
  };
}

/** The part of `browser.storage.local` the stored memory needs. */
export interface KeyValueStorage {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  /**
   * The area's changes (`storage.local.onChanged`). With it, each fact is read once and kept until
   * its key changes, rather than read from storage before every model call.
   */
  onChanged?: { addListener(listener: (changes: Record<string, unknown>) => void): void };
}

/** The `browser.storage.local` key of the endpoints switched to the prompted protocol. */
export const TOOL_PROTOCOL_STORAGE_KEY = 'toolProtocolSwitches';
/** The `browser.storage.local` key of the endpoints that refused `stream_options`. */
export const STREAM_OPTIONS_STORAGE_KEY = 'streamOptionsRefusals';
/** The `browser.storage.local` key of the context windows endpoints stated. */
export const CONTEXT_WINDOW_STORAGE_KEY = 'endpointContextWindows';
/** The `browser.storage.local` key of the endpoints seen closing reasoning with a bare `</think>`. */
export const BARE_THINK_STORAGE_KEY = 'bareThinkEndpoints';
/** Endpoints remembered at most per fact; the oldest are forgotten first. */
const MAX_REMEMBERED = 200;
const MAX_KEY_CHARS = 1_500;

const endpointKeySchema = z.string().max(MAX_KEY_CHARS);
const storedSwitchesSchema = lazySchema(() => z.record(endpointKeySchema, z.string().max(40)));
const storedWindowsSchema = lazySchema(() => z.record(endpointKeySchema, learnedContextWindowSchema.unwrap().extend({ learnedAt: z.string().max(40) })));

/** One remembered fact per endpoint in one storage key, each with the ISO date it was learned. */
function storedFacts<Fact>(
  storage: KeyValueStorage,
  storageKey: string,
  schema: z.ZodType<Record<string, Fact>>,
  dateOf: (fact: Fact) => string,
) {
  async function readStored(): Promise<Record<string, Fact>> {
    const stored = await storage.get(storageKey);
    const parsed = schema.safeParse(stored[storageKey] ?? {});
    return parsed.success ? parsed.data : {};
  }
  /** What was read, until the key changes (any context's write, ours included); only with `onChanged`. */
  let kept: Promise<Record<string, Fact>> | undefined;
  storage.onChanged?.addListener((changes) => {
    if (storageKey in changes) kept = undefined;
  });
  const read = (): Promise<Record<string, Fact>> => {
    if (!storage.onChanged) return readStored();
    const reading = (kept ??= readStored());
    // A failed read is not kept: the next one asks storage again.
    reading.catch(() => {
      if (kept === reading) kept = undefined;
    });
    return reading;
  };
  return {
    read,
    async write(endpointKey: string, fact: Fact): Promise<void> {
      const facts = { ...(await read()), [endpointKey.slice(0, MAX_KEY_CHARS)]: fact };
      const newestFirst = Object.fromEntries(Object.entries(facts).sort(([, first], [, second]) => dateOf(second).localeCompare(dateOf(first))).slice(0, MAX_REMEMBERED));
      await storage.set({ [storageKey]: newestFirst });
      // Known at once, before the change event (which then has it read again).
      if (storage.onChanged) kept = Promise.resolve(newestFirst);
    },
  };
}

/**
 * A memory kept in extension storage, one key per fact: `{ "<base URL> <model>": "<ISO date>" }` for
 * the switches, the window and its date for the windows. A stored value that does not parse is
 * treated as empty (and replaced on the next write).
 */
export function createStoredToolProtocolMemory(storage: KeyValueStorage, now: () => Date = () => new Date()): ToolProtocolMemory {
  const prompted = storedFacts<string>(storage, TOOL_PROTOCOL_STORAGE_KEY, storedSwitchesSchema, (date) => date);
  const streamOptions = storedFacts<string>(storage, STREAM_OPTIONS_STORAGE_KEY, storedSwitchesSchema, (date) => date);
  const windows = storedFacts(storage, CONTEXT_WINDOW_STORAGE_KEY, storedWindowsSchema, (window) => window.learnedAt);
  const bareThink = storedFacts<string>(storage, BARE_THINK_STORAGE_KEY, storedSwitchesSchema, (date) => date);
  return {
    isPrompted: async (endpointKey) => endpointKey in (await prompted.read()),
    rememberPrompted: (endpointKey) => prompted.write(endpointKey, now().toISOString()),
    refusesStreamOptions: async (endpointKey) => endpointKey in (await streamOptions.read()),
    rememberStreamOptionsRefused: (endpointKey) => streamOptions.write(endpointKey, now().toISOString()),
    async contextWindow(endpointKey) {
      const stored = (await windows.read())[endpointKey];
      if (!stored) return undefined;
      const { learnedAt: _learnedAt, ...window } = stored;
      return window;
    },
    rememberContextWindow: (endpointKey, window) => windows.write(endpointKey, { ...window, learnedAt: now().toISOString() }),
    opensWithBareThink: async (endpointKey) => endpointKey in (await bareThink.read()),
    async rememberBareThink(endpointKey) {
      // Written once: the answers of such a model all carry it, and a write per answer would be waste.
      if (!(endpointKey in (await bareThink.read()))) await bareThink.write(endpointKey, now().toISOString());
    },
  };
}
