/**
 * Reads tool calls that a model wrote as text (its server did not turn them into `tool_calls`), in
 * every format real local models use, and splits off reasoning written into the content. Calls
 * written inside reasoning or inside a code fence that explains the format are not calls.
 */
import { CallScan, TEXT_CALL_EXTRACTORS, type MalformedTextCall, type TextToolCall } from './text-tool-call-formats';

export type { MalformedTextCall, TextToolCall } from './text-tool-call-formats';

export interface ParsedAssistantText {
  /** The calls, in the order written. */
  calls: TextToolCall[];
  /** The content with each call's wrapper removed, trimmed (reasoning markup kept). */
  text: string;
  /** What a user may see: `text` without reasoning and format framing. */
  visibleText: string;
  /** Reasoning written into the content (`<think>…</think>` and its kin), trimmed; empty when none. */
  reasoning: string;
  /** Call-shaped text that could not be read; it stays in `text`. */
  malformed: MalformedTextCall[];
}

/** Reasoning that opens a reply: its whole span and its text. */
interface ReasoningPrefix {
  end: number;
  reasoning: string;
}

const REASONING_PREFIXES: readonly RegExp[] = [
  /^\s*<think>([\s\S]*?)(?:<\/think>|$)/,
  /^\s*<\|START_THINKING\|>([\s\S]*?)(?:<\|END_THINKING\|>|$)/,
  /^\s*<\|channel\|>analysis<\|message\|>([\s\S]*?)(?:<\|end\|>|$)/,
  // The chat template opened `<think>` in the prompt, so only the close shows (QwQ, R1 distills).
  /^((?:(?!<think>)[\s\S])*?)<\/think>/,
];

/** The reasoning a reply opens with (`<think>`, Command R's thinking, harmony analysis), if any. */
export function reasoningPrefix(content: string): ReasoningPrefix | undefined {
  for (const pattern of REASONING_PREFIXES) {
    const match = pattern.exec(content);
    if (match) return { end: match[0].length, reasoning: (match[1] as string).trim() };
  }
  return undefined;
}

/**
 * Splits an assistant's content into text calls, text and reasoning.
 *
 * @example
 * parseTextToolCalls('On it.\n<tool_call>\n{"name": "agent_list", "arguments": {}}\n</tool_call>');
 * // → { calls: [{ name: 'agent_list', arguments: {} }], text: 'On it.', visibleText: 'On it.', reasoning: '', malformed: [] }
 */
export function parseTextToolCalls(content: string, options: { toolNames?: readonly string[] } = {}): ParsedAssistantText {
  const prefix = reasoningPrefix(content);
  const reasoningEnd = prefix?.end ?? 0;
  const body = content.slice(reasoningEnd);
  const scan = new CallScan(body, new Set(options.toolNames ?? []));
  for (const extract of TEXT_CALL_EXTRACTORS) extract(scan);
  const spans = [...scan.spans].sort((first, second) => first.start - second.start);
  let remaining = '';
  let position = 0;
  for (const span of spans) {
    remaining += body.slice(position, span.start);
    position = span.end;
  }
  remaining += body.slice(position);
  const visible = scan.functionaryHeader ? remaining.replace(/^all\n/, '') : remaining;
  return {
    calls: spans.flatMap((span) => span.calls),
    text: (content.slice(0, reasoningEnd) + remaining).trim(),
    visibleText: visible.trim(),
    reasoning: prefix?.reasoning ?? '',
    malformed: scan.malformed.sort((first, second) => first.start - second.start).map(({ text, name }) => (name === undefined ? { text } : { text, name })),
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
