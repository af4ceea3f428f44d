/**
 * Recognises the refusals an endpoint gives for what Retinue adds to a request: the prompt is too
 * long for the model's context (and the window the refusal states), the endpoint (or model) does
 * not take `tools`, a strict chat template refuses the history's roles, or the endpoint does not
 * know `stream_options`. Real servers word these in many ways (OpenAI, Azure, Anthropic,
 * OpenRouter, DeepSeek, Groq, vLLM, llama.cpp, Ollama, LM Studio, TabbyAPI…); the patterns below
 * cover the wordings they are known to use. Every pattern is a plain phrase, read in linear time.
 */

/** What is known of a refused request: HTTP status (when there is one) and the error body. */
export interface EndpointRefusal {
  status?: number;
  /** The provider's message, or the whole error body as text. */
  text: string;
  /** The error's `param` field, when the body has one. */
  param?: string | null;
  /** The error's `code` field, when the body has one. */
  code?: string | number | null;
}

const CONTEXT_LENGTH_PATTERNS: readonly RegExp[] = [
  /context_length_exceeded|exceed_context_size/i,
  /maximum context length/i,
  /exceeds? the (?:available )?context (?:size|window)/i,
  /longer than the context length/i,
  /context[\s\S]{0,40}overflow|overflow[\s\S]{0,40}context/i,
  /prompt is too long/i,
  /too many tokens/i,
  /reduce the length of the messages/i,
  /input tokens exceed/i,
];

/** Whether the endpoint refused because the prompt does not fit the model's context. */
export function isContextLengthRefusal(refusal: EndpointRefusal): boolean {
  if (refusal.status === 413) return true;
  if (refusal.code === 'context_length_exceeded') return true;
  return CONTEXT_LENGTH_PATTERNS.some((pattern) => pattern.test(refusal.text));
}

const TOOLS_PATTERNS: readonly RegExp[] = [
  /does not support tools/i,
  /tools? (?:are|is) not supported/i,
  /tool (?:calling|use|choice)/i,
  /tool_choice|tool-call-parser|enable-auto-tool-choice/i,
  /tools param/i,
  /\bfunction[_ ]?call(?:ing|s)? (?:is |are )?not supported/i,
  /\bfunctions? (?:are|is) not supported/i,
  /support tool/i,
];

/** Statuses an endpoint refuses `tools` with: 400/422 usually, 404 (OpenRouter), 500 (llama.cpp without --jinja). */
const TOOLS_REFUSAL_STATUSES = new Set([400, 404, 422, 500]);

/**
 * Whether the endpoint refused the request because of `tools` / `tool_choice` (the endpoint or the
 * model cannot take them, or cannot read the model's calls): the prompted protocol can do instead.
 */
export function isToolsRefusal(refusal: EndpointRefusal): boolean {
  if (refusal.status !== undefined && !TOOLS_REFUSAL_STATUSES.has(refusal.status)) return false;
  if (isContextLengthRefusal(refusal)) return false;
  if (typeof refusal.param === 'string' && /tool|function/i.test(refusal.param)) return true;
  if (refusal.code === 'tool_use_failed') return true;
  return TOOLS_PATTERNS.some((pattern) => pattern.test(refusal.text));
}

/**
 * Refusals of the history's shape: a strict chat template (Gemma's or Mistral's on vLLM, llama.cpp
 * with `--jinja`, Perplexity, Anthropic's API) that takes only alternating user and assistant turns,
 * or no system or tool role. The page's own request passes them, so the page's own generation can.
 */
const HISTORY_SHAPE_PATTERNS: readonly RegExp[] = [
  /roles must alternate/i,
  /roles should be alternating/i,
  /only user and assistant roles are supported/i,
  /system role not supported/i,
  /expected last role/i,
];

/** Statuses a template refusal comes with: 400/422 (vLLM, hosted APIs), 500 (llama.cpp's template errors). */
const HISTORY_SHAPE_STATUSES = new Set([400, 422, 500]);

/** Whether the endpoint refused the order or the roles of the messages (not their length). */
export function isHistoryShapeRefusal(refusal: EndpointRefusal): boolean {
  if (refusal.status !== undefined && !HISTORY_SHAPE_STATUSES.has(refusal.status)) return false;
  if (isContextLengthRefusal(refusal)) return false;
  const text = refusal.text.slice(0, MAX_READ_CHARS);
  return HISTORY_SHAPE_PATTERNS.some((pattern) => pattern.test(text));
}

/**
 * Whether the endpoint refused the `stream_options` field Retinue sends to get usage in a stream
 * (Azure's "Unrecognized request argument supplied: stream_options", proxies' "Unknown parameter:
 * 'stream_options'", pydantic's "Extra inputs are not permitted" on it): asked again without it.
 */
export function isStreamOptionsRefusal(refusal: EndpointRefusal): boolean {
  if (refusal.status !== undefined && refusal.status !== 400 && refusal.status !== 422) return false;
  if (refusal.param === 'stream_options') return true;
  return refusal.text.slice(0, MAX_READ_CHARS).toLowerCase().includes('stream_options');
}

/** Characters of a refusal read at most: the known sentences come first, a longer body is noise. */
const MAX_READ_CHARS = 4_000;

/** What a context-length refusal says of the window, in the endpoint's own tokens. */
export interface StatedContextWindow {
  /** The model's context window. */
  windowTokens: number;
  /** How long the refused prompt was, when the refusal says. */
  promptTokens?: number;
  /** Tokens the request kept for the answer (`max_tokens`), when the refusal says. */
  completionTokens?: number;
}

/** Sentences that state the window; the first number found wins. */
const WINDOW_PATTERNS: readonly RegExp[] = [
  /maximum context length is (\d+) tokens/i,
  /maximum context length \((\d+)\)/i,
  /with (\d+) maximum context length/i,
  /configured limit of (\d+) tokens/i,
  /available context size of (\d+) tokens/i,
  /context length of only (\d+) tokens/i,
  /tokens > (\d+) maximum/i,
  /"n_ctx"\s?:\s?(\d+)/,
];

/** Sentences that state the refused prompt's length. */
const PROMPT_PATTERNS: readonly RegExp[] = [
  /\((\d+) in the messages/i,
  /messages resulted in (\d+) tokens/i,
  /request has (\d+) input tokens/i,
  /input length \((\d+)\)/i,
  /prompt contains (\d+) tokens/i,
  /prompt length (\d+) exceeds/i,
  /prompt is too long: (\d+) tokens/i,
  /"n_prompt_tokens"\s?:\s?(\d+)/,
  /you requested about (\d+) tokens/i,
];

const COMPLETION_PATTERNS: readonly RegExp[] = [/(?<!\d)(\d+) in the completion/i, /is too large: (\d+)/i];

function firstNumber(text: string, patterns: readonly RegExp[]): number | undefined {
  for (const pattern of patterns) {
    const found = pattern.exec(text)?.[1];
    const value = found === undefined ? Number.NaN : Number(found);
    if (Number.isSafeInteger(value) && value > 0) return value;
  }
  return undefined;
}

/**
 * The window a context-length refusal states ("maximum context length is 2048 tokens", llama.cpp's
 * `n_ctx`, ...), with the refused prompt's length when it says that too; undefined when it states
 * no window.
 *
 * @example
 * statedContextWindow("This model's maximum context length is 4097 tokens. However, your messages resulted in 4294 tokens.");
 * // → { windowTokens: 4097, promptTokens: 4294 }
 */
export function statedContextWindow(text: string): StatedContextWindow | undefined {
  const read = text.slice(0, MAX_READ_CHARS);
  const windowTokens = firstNumber(read, WINDOW_PATTERNS);
  if (windowTokens === undefined) return undefined;
  const promptTokens = firstNumber(read, PROMPT_PATTERNS);
  const completionTokens = firstNumber(read, COMPLETION_PATTERNS);
  return {
    windowTokens,
    ...(promptTokens !== undefined ? { promptTokens } : {}),
    ...(completionTokens !== undefined ? { completionTokens } : {}),
  };
}
