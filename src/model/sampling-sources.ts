// No imports: the MAIN-world page hook filters a connection profile's preset with this table too.

/** The sampling fields an agent (or a SillyTavern completion preset) may set, in the order they are shown. */
export const SAMPLING_FIELDS = [
  'temperature',
  'top_p',
  'top_k',
  'min_p',
  'frequency_penalty',
  'presence_penalty',
  'repetition_penalty',
  'max_tokens',
  'seed',
  'reasoning_effort',
] as const;
export type SamplingField = (typeof SAMPLING_FIELDS)[number];

/** Sampling values as they go into a chat-completions body. */
export type SamplingValues = Partial<Record<SamplingField, number | string>>;

/**
 * Where a call goes, for what it may carry: an OpenAI-compatible endpoint (a connection, or an
 * OpenAI-style page), or a SillyTavern Chat Completion source by its name (`custom`, `openrouter`, ...).
 */
export const OPENAI_COMPATIBLE = 'openai-compatible';

/** The fields of OpenAI's own chat-completions API, which every OpenAI-compatible endpoint takes. */
const OPENAI_FIELDS: readonly SamplingField[] = ['temperature', 'top_p', 'frequency_penalty', 'presence_penalty', 'max_tokens', 'seed', 'reasoning_effort'];
/** What SillyTavern's server passes on for every Chat Completion source. */
const TAVERN_BASE: readonly SamplingField[] = ['temperature', 'top_p', 'frequency_penalty', 'presence_penalty', 'max_tokens'];

/**
 * What SillyTavern 1.18 sends on, per source, beyond {@link TAVERN_BASE} (its client's
 * `createGenerationParameters` and its server's per-source request builders): the fields a source
 * is given nowhere in SillyTavern are the ones it does not take.
 */
const TAVERN_EXTRA: Record<string, readonly SamplingField[]> = {
  openai: ['seed', 'reasoning_effort'],
  azure_openai: ['seed', 'reasoning_effort'],
  custom: ['seed', 'reasoning_effort'],
  openrouter: ['top_k', 'min_p', 'repetition_penalty', 'seed', 'reasoning_effort'],
  mistralai: ['seed'],
  groq: ['seed'],
  deepseek: ['reasoning_effort'],
  xai: ['seed', 'reasoning_effort'],
  perplexity: ['top_k', 'reasoning_effort'],
  electronhub: ['top_k', 'seed', 'reasoning_effort'],
  chutes: ['top_k', 'min_p', 'repetition_penalty', 'seed', 'reasoning_effort'],
  nanogpt: ['top_k', 'min_p', 'repetition_penalty', 'seed', 'reasoning_effort'],
  aimlapi: ['seed', 'reasoning_effort'],
  pollinations: ['seed', 'reasoning_effort'],
  cometapi: ['reasoning_effort'],
  workers_ai: ['top_k', 'repetition_penalty', 'seed'],
  claude: ['top_k', 'reasoning_effort'],
  makersuite: ['top_k', 'seed', 'reasoning_effort'],
  vertexai: ['top_k', 'seed', 'reasoning_effort'],
};

/** The sampling fields a call to `source` may carry. */
export function acceptedSamplingFields(source: string): readonly SamplingField[] {
  if (source === OPENAI_COMPATIBLE) return OPENAI_FIELDS;
  return [...TAVERN_BASE, ...(TAVERN_EXTRA[source] ?? [])];
}

/**
 * Splits sampling into what `source` takes and the names of what it does not (dropped, so that a
 * strict endpoint does not refuse the whole call over one field).
 *
 * @example
 * splitSampling({ temperature: 0, top_k: 40 }, 'openai-compatible') // { kept: { temperature: 0 }, dropped: ['top_k'] }
 */
export function splitSampling(sampling: SamplingValues, source: string): { kept: SamplingValues; dropped: SamplingField[] } {
  const accepted = acceptedSamplingFields(source);
  const kept: SamplingValues = {};
  const dropped: SamplingField[] = [];
  for (const field of SAMPLING_FIELDS) {
    const value = sampling[field];
    if (value === undefined) continue;
    if (accepted.includes(field)) kept[field] = value;
    else dropped.push(field);
  }
  return { kept, dropped };
}

/*
 * Checked against SillyTavern 1.18.0 (https://github.com/jaidaken/SillyTavern/tree/1.18.0):
 * public/scripts/openai.js createGenerationParameters (seedSupportedSources, the per-source top_k,
 * min_p and repetition_penalty lines, getReasoningEffort's sources) and
 * src/endpoints/backends/chat-completions.js (the fields each source's request carries on).
 */
