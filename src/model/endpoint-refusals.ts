/**
 * Recognises the two refusals an endpoint gives for what Retinue adds to a request: the prompt is
 * too long for the model's context, or the endpoint (or model) does not take `tools`. Real servers
 * word these in many ways (OpenAI, Azure, Anthropic, OpenRouter, DeepSeek, Groq, vLLM, llama.cpp,
 * Ollama, LM Studio, TabbyAPI…); the patterns below cover the wordings they are known to use.
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
