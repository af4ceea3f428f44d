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

/** What every source takes: OpenAI's own fields, which SillyTavern's server passes on for every Chat Completion source. */
const BASE_FIELDS: readonly SamplingField[] = ['temperature', 'top_p', 'frequency_penalty', 'presence_penalty', 'max_tokens'];

/** The letters of {@link SOURCE_EXTRAS}. */
const EXTRA_LETTERS: Record<string, SamplingField> = { k: 'top_k', m: 'min_p', r: 'repetition_penalty', s: 'seed', e: 'reasoning_effort' };

/**
 * What each source takes beyond {@link BASE_FIELDS}, as `source:letters` (k top_k, m min_p,
 * r repetition_penalty, s seed, e reasoning_effort), kept short since every enabled page loads it.
 * An OpenAI-compatible endpoint takes OpenAI's own fields; a SillyTavern source, what SillyTavern 1.18
 * sends it (its client's `createGenerationParameters`, its server's per-source request builders): a
 * field SillyTavern never sends a source is one that source does not take.
 */
const SOURCE_EXTRAS =
  'openai-compatible:se openai:se azure_openai:se custom:se openrouter:kmrse mistralai:s groq:s deepseek:e xai:se perplexity:ke electronhub:kse ' +
  'chutes:kmrse nanogpt:kmrse aimlapi:se pollinations:se cometapi:e workers_ai:krs claude:ke makersuite:kse vertexai:kse';

/** The sampling fields a call to `source` may carry. */
export function acceptedSamplingFields(source: string): readonly SamplingField[] {
  const letters = ` ${SOURCE_EXTRAS} `.split(` ${source}:`)[1]?.split(' ')[0] ?? '';
  const extras = [...letters].map((letter) => EXTRA_LETTERS[letter] as SamplingField);
  return [...BASE_FIELDS, ...extras];
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
