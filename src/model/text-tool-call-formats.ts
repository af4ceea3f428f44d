/**
 * The wrappers models use when they write tool calls as text (their server did not parse them):
 * one small extractor per family. Each finds its calls in the reply's body (reasoning already cut
 * off), records the span to cut out of the text, and masks it so no later extractor reads it again.
 */
import { isPlainObject, parseJsonOrUndefined, readJsonAt } from './json-scan';

/** A tool call read from text: the provider name and parsed arguments. */
export interface TextToolCall {
  name: string;
  arguments: Record<string, unknown>;
  /** An id the format itself carries (Mistral, Command R7B, Kimi). */
  id?: string;
}

/** Something that looked like a call but could not be read (broken JSON, unknown keys). */
export interface MalformedTextCall {
  /** The call text as the model wrote it. */
  text: string;
  /** The tool name, when it could be made out. */
  name?: string;
}

/** What the extractors found in one body; spans are [start, end) offsets into the body. */
export class CallScan {
  readonly spans: { start: number; end: number; calls: TextToolCall[] }[] = [];
  readonly malformed: (MalformedTextCall & { start: number })[] = [];
  /** The body with claimed spans blanked out (same length, so offsets stay valid). */
  masked: string;
  /** Functionary's `all\n` recipient header opens the text: framing, not words for the user. */
  functionaryHeader = false;

  constructor(
    readonly body: string,
    readonly toolNames: ReadonlySet<string>,
  ) {
    this.masked = body;
  }

  claim(start: number, end: number, calls: TextToolCall[]): void {
    this.spans.push({ start, end, calls });
    this.masked = this.masked.slice(0, start) + ' '.repeat(end - start) + this.masked.slice(end);
  }
}

const NAME = String.raw`[A-Za-z_][\w.-]*`;
const NAME_PATTERN = new RegExp(`^${NAME}$`);

/**
 * A call from a parsed object: `{name, arguments}` (arguments an object or a JSON string),
 * `{name, parameters}` (Llama), `{tool_name, parameters}` (Command R), or OpenAI's
 * `{type: "function", function: {...}}`. Bare JSON must name its arguments to count as a call.
 */
export function callFromObject(value: unknown, requireArguments: boolean): TextToolCall | undefined {
  if (!isPlainObject(value)) return undefined;
  const inner = isPlainObject(value.function) ? value.function : value;
  const name = typeof inner.name === 'string' ? inner.name : typeof inner.tool_name === 'string' ? inner.tool_name : undefined;
  if (name === undefined || !NAME_PATTERN.test(name)) return undefined;
  const rawArguments = 'arguments' in inner ? inner.arguments : 'parameters' in inner ? inner.parameters : undefined;
  if (rawArguments === undefined && requireArguments) return undefined;
  const parsed = typeof rawArguments === 'string' ? (rawArguments.trim() === '' ? {} : parseJsonOrUndefined(rawArguments)) : (rawArguments ?? {});
  if (!isPlainObject(parsed)) return undefined;
  const id = typeof value.id === 'string' ? value.id : typeof value.tool_call_id === 'string' ? value.tool_call_id : undefined;
  return { name, arguments: parsed, ...(id !== undefined ? { id } : {}) };
}

/** One call object, or a non-empty list of them. */
export function callsFromValue(value: unknown, requireArguments: boolean): TextToolCall[] | undefined {
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) return undefined;
  const calls = items.map((item) => callFromObject(item, requireArguments));
  return calls.every((call) => call !== undefined) ? (calls as TextToolCall[]) : undefined;
}

/** A raw XML-ish parameter value: JSON when it is an object or array, else the text itself. */
function parameterValue(raw: string): unknown {
  const text = raw.replace(/^\n/, '').replace(/\n$/, '');
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return parseJsonOrUndefined(trimmed) ?? text;
  return text;
}

function guessName(text: string): string | undefined {
  return /"(?:name|tool_name|tool)"\s*:\s*"([^"]+)"/.exec(text)?.[1];
}

/** Calls inside an explicit wrapper: JSON, `<function=name>` (with JSON or `<parameter=…>`), or GLM's arg pairs. */
function wrappedCalls(inner: string): TextToolCall[] | undefined {
  const text = inner.trim();
  if (text.startsWith('{') || text.startsWith('[')) return callsFromValue(parseJsonOrUndefined(text), false);
  const functionTag = new RegExp(`^<function=(${NAME})>([\\s\\S]*?)(?:</function>\\s*)?$`).exec(text);
  if (functionTag) return functionTagCall(functionTag[1] as string, functionTag[2] as string);
  const glm = new RegExp(`^(${NAME})\\s*((?:<arg_key>[\\s\\S]*?</arg_key>\\s*<arg_value>[\\s\\S]*?</arg_value>\\s*)*)$`).exec(text);
  if (glm) {
    const argumentsValue: Record<string, unknown> = {};
    for (const pair of (glm[2] as string).matchAll(/<arg_key>([\s\S]*?)<\/arg_key>\s*<arg_value>([\s\S]*?)<\/arg_value>/g)) {
      argumentsValue[(pair[1] as string).trim()] = parameterValue(pair[2] as string);
    }
    return [{ name: glm[1] as string, arguments: argumentsValue }];
  }
  return undefined;
}

function functionTagCall(name: string, body: string): TextToolCall[] | undefined {
  const trimmed = body.trim();
  if (trimmed === '' || trimmed.startsWith('{')) {
    const argumentsValue = trimmed === '' ? {} : parseJsonOrUndefined(trimmed);
    return isPlainObject(argumentsValue) ? [{ name, arguments: argumentsValue }] : undefined;
  }
  const argumentsValue: Record<string, unknown> = {};
  for (const parameter of trimmed.matchAll(/<parameter=([^>]+)>([\s\S]*?)<\/parameter>/g)) {
    argumentsValue[(parameter[1] as string).trim()] = parameterValue(parameter[2] as string);
  }
  return [{ name, arguments: argumentsValue }];
}

function fenceRanges(text: string): [number, number][] {
  return [...text.matchAll(/```[\s\S]*?```/g)].map((match) => [match.index, match.index + match[0].length]);
}

/** Hermes / Qwen `<tool_call>…</tool_call>` (also Qwen3-Coder and GLM inside it); never inside a code fence. */
function hermes(scan: CallScan): void {
  const fences = fenceRanges(scan.masked);
  for (const match of scan.masked.matchAll(/<tool_call>([\s\S]*?)(?:<\/tool_call>|$)/g)) {
    if (fences.some(([start, end]) => match.index >= start && match.index < end)) continue;
    const calls = wrappedCalls(match[1] as string);
    if (calls) scan.claim(match.index, match.index + match[0].length, calls);
    else scan.malformed.push({ start: match.index, text: match[0], ...nameOf(match[1] as string) });
  }
}

function nameOf(text: string): { name?: string } {
  const name = guessName(text);
  return name === undefined ? {} : { name };
}

/** A wrapper `open … close` (close optional at the end of the text) holding JSON calls. */
function jsonWrapper(open: RegExp, close: string): (scan: CallScan) => void {
  return (scan) => {
    for (const match of scan.masked.matchAll(new RegExp(`${open.source}([\\s\\S]*?)(?:${close}|$)`, 'g'))) {
      const inner = match[1] as string;
      const calls = callsFromValue(parseJsonOrUndefined(inner.trim()), false);
      if (calls) scan.claim(match.index, match.index + match[0].length, calls);
      else scan.malformed.push({ start: match.index, text: match[0], ...nameOf(inner) });
    }
  };
}

/** Functionary v3.1 `<function=name>{…}</function>` outside any other wrapper. */
function functionTags(scan: CallScan): void {
  for (const match of scan.masked.matchAll(new RegExp(`<function=(${NAME})>([\\s\\S]*?)</function>`, 'g'))) {
    const calls = functionTagCall(match[1] as string, match[2] as string);
    if (calls) scan.claim(match.index, match.index + match[0].length, calls);
  }
}

/** MiniMax `<minimax:tool_call><invoke name="…"><parameter name="…">…</parameter></invoke>`. */
function minimax(scan: CallScan): void {
  for (const match of scan.masked.matchAll(/<minimax:tool_call>([\s\S]*?)(?:<\/minimax:tool_call>|$)/g)) {
    const calls: TextToolCall[] = [];
    for (const invoke of (match[1] as string).matchAll(/<invoke name="([^"]+)">([\s\S]*?)<\/invoke>/g)) {
      const argumentsValue: Record<string, unknown> = {};
      for (const parameter of (invoke[2] as string).matchAll(/<parameter name="([^"]+)">([\s\S]*?)<\/parameter>/g)) {
        argumentsValue[parameter[1] as string] = parameterValue(parameter[2] as string);
      }
      calls.push({ name: invoke[1] as string, arguments: argumentsValue });
    }
    if (calls.length > 0) scan.claim(match.index, match.index + match[0].length, calls);
  }
}

/** Kimi K2 `<|tool_calls_section_begin|>…<|tool_call_begin|>functions.name:0<|tool_call_argument_begin|>{…}<|tool_call_end|>`. */
function kimi(scan: CallScan): void {
  for (const match of scan.masked.matchAll(/<\|tool_calls_section_begin\|>([\s\S]*?)(?:<\|tool_calls_section_end\|>|$)/g)) {
    const calls: TextToolCall[] = [];
    for (const call of (match[1] as string).matchAll(/<\|tool_call_begin\|>\s*([\w.:-]+)\s*<\|tool_call_argument_begin\|>([\s\S]*?)<\|tool_call_end\|>/g)) {
      const id = call[1] as string;
      const argumentsValue = parseJsonOrUndefined((call[2] as string).trim());
      if (!isPlainObject(argumentsValue)) continue;
      calls.push({ name: id.replace(/^functions\./, '').replace(/:\d+$/, ''), arguments: argumentsValue, id });
    }
    if (calls.length > 0) scan.claim(match.index, match.index + match[0].length, calls);
  }
}

/** DeepSeek R1 / V3.1 `<｜tool▁calls▁begin｜>` (U+FF5C bars, U+2581 or `_`/space between words). */
function deepseek(scan: CallScan): void {
  const tag = (...words: string[]) => `<｜${words.join('[▁_ ]')}｜>`;
  const section = new RegExp(`${tag('tool', 'calls', 'begin')}([\\s\\S]*?)(?:${tag('tool', 'calls', 'end')}|$)`, 'g');
  const oneCall = new RegExp(`${tag('tool', 'call', 'begin')}([\\s\\S]*?)${tag('tool', 'call', 'end')}`, 'g');
  const separator = new RegExp(tag('tool', 'sep'));
  for (const match of scan.masked.matchAll(section)) {
    const calls: TextToolCall[] = [];
    for (const call of (match[1] as string).matchAll(oneCall)) {
      const parts = (call[1] as string).split(separator);
      let name = (parts[0] ?? '').trim();
      let argumentsText = parts.slice(1).join('');
      if (name === 'function') {
        const newline = argumentsText.indexOf('\n');
        name = (newline < 0 ? argumentsText : argumentsText.slice(0, newline)).trim();
        argumentsText = newline < 0 ? '' : argumentsText.slice(newline + 1);
      }
      const argumentsValue = parseJsonOrUndefined(argumentsText.trim().replace(/^```(?:json)?\s*/, '').replace(/\s*```$/, '') || '{}');
      if (NAME_PATTERN.test(name) && isPlainObject(argumentsValue)) calls.push({ name, arguments: argumentsValue });
    }
    if (calls.length > 0) scan.claim(match.index, match.index + match[0].length, calls);
  }
}

/** A marker followed directly by JSON calls (Granite `<|tool_call|>`, FireFunction ` functools`, Mistral `[TOOL_CALLS][…]`). */
function markerThenJson(marker: RegExp): (scan: CallScan) => void {
  return (scan) => {
    for (const match of scan.masked.matchAll(new RegExp(marker.source, 'g'))) {
      const json = readJsonAt(scan.masked, match.index + match[0].length);
      const calls = json && callsFromValue(json.value, false);
      if (json && calls) scan.claim(match.index, json.end, calls);
    }
  };
}

/** Mistral v11+ `[TOOL_CALLS]name[ARGS]{…}`, once per call. */
function mistralNamed(scan: CallScan): void {
  for (const match of scan.masked.matchAll(new RegExp(`\\[TOOL_CALLS\\](${NAME})(?:\\[CALL_ID\\](\\w+))?\\[ARGS\\]`, 'g'))) {
    const json = readJsonAt(scan.masked, match.index + match[0].length);
    if (!json || !isPlainObject(json.value)) continue;
    const id = match[2];
    scan.claim(match.index, json.end, [{ name: match[1] as string, arguments: json.value, ...(id ? { id } : {}) }]);
  }
}

/** Llama 3.x `<|python_tag|>` followed by JSON calls (`;`-separated) or `name.call(key="value")`. */
function pythonTag(scan: CallScan): void {
  for (const match of scan.masked.matchAll(/<\|python_tag\|>/g)) {
    const start = match.index + match[0].length;
    const builtin = new RegExp(`^\\s*(${NAME})\\.call\\(([\\s\\S]*?)\\)`).exec(scan.masked.slice(start));
    if (builtin) {
      const argumentsValue: Record<string, unknown> = {};
      for (const pair of (builtin[2] as string).matchAll(/(\w+)\s*=\s*("(?:[^"\\]|\\.)*"|[^,)]+)/g)) {
        const raw = (pair[2] as string).trim();
        argumentsValue[pair[1] as string] = parseJsonOrUndefined(raw) ?? raw;
      }
      scan.claim(match.index, start + builtin[0].length, [{ name: builtin[1] as string, arguments: argumentsValue }]);
      continue;
    }
    const sequence = jsonCallSequence(scan.masked, start, false);
    if (sequence) scan.claim(match.index, sequence.end, sequence.calls);
  }
}

/** JSON calls one after another from `start`, separated by `;` or whitespace. */
function jsonCallSequence(text: string, start: number, requireArguments: boolean): { calls: TextToolCall[]; end: number } | undefined {
  const calls: TextToolCall[] = [];
  let position = start;
  for (;;) {
    const json = readJsonAt(text, position);
    const found = json && callsFromValue(json.value, requireArguments);
    if (!json || !found) break;
    calls.push(...found);
    position = json.end;
    const separator = /^\s*;?/.exec(text.slice(position));
    position += separator?.[0].length ?? 0;
  }
  return calls.length > 0 ? { calls, end: position } : undefined;
}

/** gpt-oss harmony: `to=functions.name … <|message|>{…}`, the recipient before or after the channel. */
function harmony(scan: CallScan): void {
  const header = new RegExp(
    `(?:<\\|start\\|>assistant)?(?:<\\|channel\\|>\\w+)?\\s*to=functions\\.(${NAME})[^<]*(?:<\\|channel\\|>\\w+[^<]*)?(?:<\\|constrain\\|>\\w+)?<\\|message\\|>`,
    'g',
  );
  for (const match of scan.masked.matchAll(header)) {
    const json = readJsonAt(scan.masked, match.index + match[0].length);
    if (!json || !isPlainObject(json.value)) continue;
    const callEnd = /^\s*<\|call\|>/.exec(scan.masked.slice(json.end))?.[0].length ?? 0;
    scan.claim(match.index, json.end + callEnd, [{ name: match[1] as string, arguments: json.value }]);
  }
}

/** Functionary v3.2 `>>>name\n{…}`; the first call has no `>>>` (the prompt holds it). */
function functionary(scan: CallScan): void {
  const segments = scan.masked.split('>>>');
  let offset = 0;
  segments.forEach((segment, index) => {
    const segmentStart = offset;
    offset += segment.length + 3;
    const named = new RegExp(`^(${NAME})\\n`).exec(segment);
    if (!named) return;
    const name = named[1] as string;
    if (index === 0 && !(scan.toolNames.has(name) || segments.length > 1)) return;
    const json = readJsonAt(segment, named[0].length);
    if (!json || !isPlainObject(json.value) || segment.slice(json.end).trim() !== '') return;
    const start = index === 0 ? segmentStart : segmentStart - 3;
    scan.claim(start, segmentStart + segment.length, [{ name, arguments: json.value }]);
  });
  if (scan.spans.length > 0 && scan.masked.startsWith('all\n')) scan.functionaryHeader = true;
}

/** A fenced code block holding nothing but a call object or a list of them. */
function fencedJson(scan: CallScan): void {
  for (const match of scan.masked.matchAll(/```(?:json)?[ \t]*\n([\s\S]*?)\n?```/g)) {
    const calls = callsFromValue(parseJsonOrUndefined((match[1] as string).trim()), true);
    if (calls) scan.claim(match.index, match.index + match[0].length, calls);
  }
}

/**
 * A reply that is nothing but call JSON (Llama 3.x without its tag; several joined by `;`), or
 * prose ending in call JSON on a line of its own that names tools on offer.
 */
function wholeJson(scan: CallScan): void {
  const starts = [...scan.masked.matchAll(/(?:^|\n)\s*(?=[{[])/g)].map((match) => match.index + match[0].length);
  for (const start of starts) {
    const sequence = jsonCallSequence(scan.masked, start, true);
    if (!sequence || scan.masked.slice(sequence.end).trim() !== '') continue;
    const atStart = scan.masked.slice(0, start).trim() === '';
    if (!atStart && !sequence.calls.every((call) => scan.toolNames.has(call.name))) continue;
    scan.claim(start, sequence.end, sequence.calls);
    return;
  }
}

/** Every extractor, most distinctive wrapper first; the bare-JSON readers come last. */
export const TEXT_CALL_EXTRACTORS: readonly ((scan: CallScan) => void)[] = [
  deepseek,
  kimi,
  minimax,
  harmony,
  jsonWrapper(/<\|START_ACTION\|>/, String.raw`<\|END_ACTION\|>`),
  hermes,
  functionTags,
  jsonWrapper(/<TOOLCALL>/, '</TOOLCALL>'),
  jsonWrapper(/\[TOOL_REQUEST\]/, String.raw`\[END_TOOL_REQUEST\]`),
  markerThenJson(/<\|tool_call\|>/),
  markerThenJson(/\[TOOL_CALLS\]/),
  mistralNamed,
  pythonTag,
  markerThenJson(/^\s*functools(?=\[)/),
  functionary,
  fencedJson,
  wholeJson,
];
