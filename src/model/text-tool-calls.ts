/**
 * Reads tool calls that a model wrote as text (its server did not turn them into `tool_calls`), in
 * every format real local models use, and splits off reasoning written into the content. Calls
 * written inside reasoning or inside a code fence that explains the format are not calls.
 */
import { TEXT_CALL_EXTRACTORS } from './text-tool-call-formats';
import { CallScan, MAX_PARSED_CHARS, type MalformedTextCall, type TextToolCall } from './text-scan';

export type { MalformedTextCall, TextToolCall } from './text-scan';
export { MAX_PARSED_CHARS } from './text-scan';

export interface ParsedAssistantText {
  /** The calls, in the order written. */
  calls: TextToolCall[];
  /** The content with each call's wrapper removed, trimmed (reasoning markup kept). */
  text: string;
  /** What a user may see: `text` without reasoning and format framing. */
  visibleText: string;
  /** `visibleText` without the call-shaped text that could not be read either. */
  visibleWithoutMalformed: string;
  /** Reasoning written into the content (`<think>…</think>` and its kin), trimmed; empty when none. */
  reasoning: string;
  /** Whether that reasoning was closed by a bare `</think>` (its opening was in the prompt). */
  reasoningClosedBare: boolean;
  /** Call-shaped text that could not be read; it stays in `text`. */
  malformed: MalformedTextCall[];
  /** Characters the readers looked at (for tests that check the work grows linearly). */
  steps: number;
}

/** Reasoning that opens a reply: its whole span and its text. */
export interface ReasoningPrefix {
  end: number;
  reasoning: string;
  /** Closed by a bare `</think>`: the chat template opened the block in the prompt. */
  bare?: true;
}

/** Reasoning blocks an answer may open with: opening and closing markup (the close may be missing). */
export const REASONING_BLOCKS: readonly (readonly [string, string])[] = [
  ['<think>', '</think>'],
  ['<|START_THINKING|>', '<|END_THINKING|>'],
  ['<|channel|>analysis<|message|>', '<|end|>'],
];

/**
 * The reasoning a reply opens with (`<think>`, Command R's thinking, harmony analysis, or text
 * before a bare `</think>` when the chat template opened it in the prompt: QwQ, R1 distills), if any.
 */
export function reasoningPrefix(content: string): ReasoningPrefix | undefined {
  let start = 0;
  while (start < content.length && /\s/.test(content[start] as string)) start += 1;
  for (const [open, close] of REASONING_BLOCKS) {
    if (!content.startsWith(open, start)) continue;
    const bodyStart = start + open.length;
    const closeAt = content.indexOf(close, bodyStart);
    const bodyEnd = closeAt === -1 ? content.length : closeAt;
    return { end: closeAt === -1 ? content.length : closeAt + close.length, reasoning: content.slice(bodyStart, bodyEnd).trim() };
  }
  const bareClose = content.indexOf('</think>');
  if (bareClose === -1) return undefined;
  const opened = content.indexOf('<think>');
  if (opened !== -1 && opened < bareClose) return undefined;
  return { end: bareClose + '</think>'.length, reasoning: content.slice(0, bareClose).trim(), bare: true };
}

/** The body with the spans cut out, in one pass. */
function withoutSpans(body: string, spans: readonly { start: number; end: number }[]): string {
  const sorted = [...spans].sort((first, second) => first.start - second.start);
  let remaining = '';
  let position = 0;
  for (const span of sorted) {
    if (span.start < position) continue;
    remaining += body.slice(position, span.start);
    position = span.end;
  }
  return remaining + body.slice(position);
}

/**
 * Splits an assistant's content into text calls, text and reasoning. An answer longer than
 * {@link MAX_PARSED_CHARS} is plain text past its reasoning: no calls are looked for in it.
 *
 * @example
 * parseTextToolCalls('On it.\n<tool_call>\n{"name": "agent_list", "arguments": {}}\n</tool_call>', { toolNames: ['agent_list'] });
 * // → { calls: [{ name: 'agent_list', arguments: {} }], text: 'On it.', visibleText: 'On it.', reasoning: '', malformed: [], … }
 */
export function parseTextToolCalls(content: string, options: { toolNames?: readonly string[] } = {}): ParsedAssistantText {
  // An answer with no text (a native tool call's, most rounds) holds no call and no reasoning to look for.
  if (content.trim() === '') return { calls: [], text: '', visibleText: '', visibleWithoutMalformed: '', reasoning: '', reasoningClosedBare: false, malformed: [], steps: content.length };
  const prefix = reasoningPrefix(content);
  const reasoningEnd = prefix?.end ?? 0;
  const body = content.slice(reasoningEnd);
  const scan = new CallScan(body, new Set(options.toolNames ?? []));
  if (body.length <= MAX_PARSED_CHARS) for (const extract of TEXT_CALL_EXTRACTORS) extract(scan);
  const spans = [...scan.spans].sort((first, second) => first.start - second.start);
  const remaining = withoutSpans(body, spans);
  const visible = scan.functionaryHeader && remaining.startsWith('all\n') ? remaining.slice('all\n'.length) : remaining;
  const malformed = scan.malformed.sort((first, second) => first.start - second.start);
  const remainingWithoutMalformed = malformed.length === 0 ? remaining : withoutSpans(body, [...spans, ...malformed]);
  const visibleWithoutMalformed = scan.functionaryHeader && remainingWithoutMalformed.startsWith('all\n') ? remainingWithoutMalformed.slice(4) : remainingWithoutMalformed;
  return {
    calls: spans.flatMap((span) => span.calls),
    text: (content.slice(0, reasoningEnd) + remaining).trim(),
    visibleText: visible.trim(),
    visibleWithoutMalformed: visibleWithoutMalformed.trim(),
    reasoning: prefix?.reasoning ?? '',
    reasoningClosedBare: prefix?.bare === true,
    malformed: malformed.map(({ text, name }) => (name === undefined ? { text } : { text, name })),
    steps: scan.meter.steps + content.length,
  };
}

/** Openings of a text call (or of reasoning) that a streamed reply must hold back until it is known. */
export const TEXT_CALL_MARKERS: readonly string[] = [
  '<tool_call',
  '<|python_tag|>',
  '[TOOL_CALLS]',
  '<function=',
  '<|tool_call|>',
  '<TOOLCALL>',
  '[TOOL_REQUEST]',
  '<|START_ACTION|>',
  '<minimax:tool_call>',
  '<|tool_calls_section_begin|>',
  '<｜tool▁calls▁begin｜>',
  'to=functions.',
  '>>>',
];

/**
 * Whether a reply streamed so far could still turn out to be (or hold) a text tool call, so a
 * streaming reply must hold it back: it starts with `{` or `[`, holds a call marker (`<tool_call`,
 * `[TOOL_CALLS]`, `<|python_tag|>`, a ```json fence…), or ends with the first characters of one. A
 * reply that opens with `<think>` is judged by what follows the reasoning (and held while it is open).
 *
 * @example
 * mayBeToolCallStart('Sure, here'); // → false
 * mayBeToolCallStart('Sure <tool'); // → true
 */
export function mayBeToolCallStart(textSoFar: string): boolean {
  const trimmed = textSoFar.trimStart();
  if (trimmed === '') return false;
  if ('<think>'.startsWith(trimmed) || trimmed.startsWith('<think>')) {
    const close = trimmed.indexOf('</think>');
    return close < 0 || mayBeToolCallStart(trimmed.slice(close + '</think>'.length));
  }
  if (trimmed.startsWith('{') || trimmed.startsWith('[') || trimmed.startsWith('functools')) return true;
  if (TEXT_CALL_MARKERS.some((marker) => trimmed.includes(marker))) return true;
  if (/```[ \t]*json/i.test(trimmed) || /^```[ \t]*(?:\n|$)/.test(trimmed)) return true;
  return [...TEXT_CALL_MARKERS, '```'].some((marker) => endsWithStartOf(trimmed, marker));
}

function endsWithStartOf(text: string, marker: string): boolean {
  for (let length = Math.min(marker.length - 1, text.length); length > 0; length -= 1) {
    if (text.endsWith(marker.slice(0, length))) return true;
  }
  return false;
}
