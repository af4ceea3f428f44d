/**
 * The wrappers models use when they write tool calls as text (their server did not parse them):
 * one small extractor per family. Each walks the body forward once (reasoning already cut off),
 * with the calls found before it blanked out, and records the spans of the calls it finds.
 */
import { callsFromValue, functionTagCall, taggedPairs, wrappedCalls } from './text-call-objects';
import { harmony, MARKER_AND_JSON_EXTRACTORS } from './text-tool-call-json';
import { CallScan, isPlainObject, isToolName, type TextReader, type TextToolCall } from './text-scan';

export { CallScan } from './text-scan';
export type { MalformedTextCall, TextToolCall } from './text-scan';

/** Spans of ``` fenced blocks, paired in order (an unclosed fence runs to the end). */
function fenceRanges(reader: TextReader): [number, number][] {
  const ranges: [number, number][] = [];
  let position = 0;
  for (;;) {
    const open = reader.find('```', position);
    if (open === -1) return ranges;
    const close = reader.find('```', open + 3);
    if (close === -1) return ranges;
    ranges.push([open, close + 3]);
    position = close + 3;
  }
}

/**
 * Each `open … close` in the body (the close optional at the end): calls its inner text holds, read
 * by `read`; what looks like a call and cannot be read is reported when `reportMalformed`.
 */
function eachWrapped(scan: CallScan, open: string, close: string, read: (inner: string, reader: TextReader, innerStart: number, innerEnd: number) => TextToolCall[] | undefined, reportMalformed: boolean, skip?: [number, number][]): void {
  const reader = scan.reader;
  let position = 0;
  let fence = 0;
  for (;;) {
    const start = reader.find(open, position);
    if (start === -1) return;
    const innerStart = start + open.length;
    const closeAt = reader.find(close, innerStart);
    const innerEnd = closeAt === -1 ? reader.length : closeAt;
    const end = closeAt === -1 ? reader.length : closeAt + close.length;
    position = end;
    while (skip && fence < skip.length && (skip[fence] as [number, number])[1] <= start) fence += 1;
    const range = skip?.[fence];
    if (range && start >= range[0] && start < range[1]) {
      position = innerStart;
      continue;
    }
    const inner = reader.slice(innerStart, innerEnd);
    const calls = read(inner, reader, innerStart, innerEnd);
    if (calls) scan.claim(start, end, calls);
    else if (reportMalformed) scan.reportMalformed(start, end, inner);
  }
}

/** Hermes / Qwen `<tool_call>…</tool_call>` (also Qwen3-Coder and GLM inside it); never inside a code fence. */
function hermes(scan: CallScan): void {
  eachWrapped(scan, '<tool_call>', '</tool_call>', (inner) => wrappedCalls(inner, scan.meter), true, fenceRanges(scan.reader));
}

/** A wrapper `open … close` (close optional at the end of the text) holding JSON calls. */
function jsonWrapper(open: string, close: string): (scan: CallScan) => void {
  return (scan) => eachWrapped(scan, open, close, (inner, reader) => callsFromValue(reader.parse(inner.trim()), false), true);
}

/** Functionary v3.1 `<function=name>{…}</function>` outside any other wrapper. */
function functionTags(scan: CallScan): void {
  const reader = scan.reader;
  let position = 0;
  for (;;) {
    const start = reader.find('<function=', position);
    if (start === -1) return;
    const nameStart = start + '<function='.length;
    const nameEnd = reader.readName(nameStart);
    position = nameStart;
    if (nameEnd === -1 || reader.text[nameEnd] !== '>') continue;
    const close = reader.find('</function>', nameEnd);
    if (close === -1) return;
    const calls = functionTagCall(reader.text.slice(nameStart, nameEnd), reader.slice(nameEnd + 1, close), scan.meter);
    if (calls) scan.claim(start, close + '</function>'.length, calls);
    position = close + '</function>'.length;
  }
}

/** MiniMax `<minimax:tool_call><invoke name="…"><parameter name="…">…</parameter></invoke>`. */
function minimax(scan: CallScan): void {
  eachWrapped(
    scan,
    '<minimax:tool_call>',
    '</minimax:tool_call>',
    (_inner, reader, innerStart, innerEnd) => {
      const calls: TextToolCall[] = [];
      let position = innerStart;
      for (;;) {
        const invoke = reader.find('<invoke name="', position);
        if (invoke === -1 || invoke >= innerEnd) break;
        const nameStart = invoke + '<invoke name="'.length;
        const nameEnd = reader.find('">', nameStart);
        const close = nameEnd === -1 ? -1 : reader.find('</invoke>', nameEnd);
        if (close === -1 || close >= innerEnd) break;
        const name = reader.slice(nameStart, nameEnd);
        if (name !== '' && !name.includes('"')) calls.push({ name, arguments: taggedPairs(reader, '<parameter name="', '">', '</parameter>', nameEnd + 2, close) });
        position = close + '</invoke>'.length;
      }
      return calls.length > 0 ? calls : undefined;
    },
    false,
  );
}

/** Kimi K2 `<|tool_calls_section_begin|>…<|tool_call_begin|>functions.name:0<|tool_call_argument_begin|>{…}<|tool_call_end|>`. */
function kimi(scan: CallScan): void {
  eachWrapped(
    scan,
    '<|tool_calls_section_begin|>',
    '<|tool_calls_section_end|>',
    (_inner, reader, innerStart, innerEnd) => {
      const calls: TextToolCall[] = [];
      let position = innerStart;
      for (;;) {
        const begin = reader.find('<|tool_call_begin|>', position);
        if (begin === -1 || begin >= innerEnd) break;
        position = begin + '<|tool_call_begin|>'.length;
        const idStart = reader.skipSpace(position, innerEnd);
        const idEnd = reader.readWord(idStart, '.:-');
        const argumentsOpen = reader.skipSpace(idEnd, innerEnd);
        if (idEnd === idStart || !reader.startsWith('<|tool_call_argument_begin|>', argumentsOpen)) continue;
        const argumentsStart = argumentsOpen + '<|tool_call_argument_begin|>'.length;
        const end = reader.find('<|tool_call_end|>', argumentsStart);
        if (end === -1 || end >= innerEnd) break;
        position = end + '<|tool_call_end|>'.length;
        const argumentsValue = reader.parse(reader.slice(argumentsStart, end).trim());
        if (!isPlainObject(argumentsValue)) continue;
        const id = reader.text.slice(idStart, idEnd);
        const bare = id.startsWith('functions.') ? id.slice('functions.'.length) : id;
        const colon = bare.lastIndexOf(':');
        const name = colon !== -1 && /^\d+$/.test(bare.slice(colon + 1)) ? bare.slice(0, colon) : bare;
        calls.push({ name, arguments: argumentsValue, id });
      }
      return calls.length > 0 ? calls : undefined;
    },
    false,
  );
}

/** Where a DeepSeek tag `<｜word▁word｜>` (U+FF5C bars; U+2581, `_` or a space between words) ends, or -1. */
function deepseekTagEnd(reader: TextReader, at: number, words: readonly string[]): number {
  let position = at;
  if (!reader.startsWith('<｜', position)) return -1;
  position += 2;
  for (const [index, word] of words.entries()) {
    if (index > 0) {
      if (!'▁_ '.includes(reader.text[position] ?? 'x')) return -1;
      position += 1;
    }
    if (!reader.startsWith(word, position)) return -1;
    position += word.length;
  }
  return reader.startsWith('｜>', position) ? position + 2 : -1;
}

/** The first DeepSeek tag with these words at or after `from` (before `to`): its start and end. */
function findDeepseekTag(reader: TextReader, from: number, words: readonly string[], to = reader.length): { start: number; end: number } | undefined {
  let position = from;
  for (;;) {
    const start = reader.find('<｜', position);
    if (start === -1 || start >= to) return undefined;
    const end = deepseekTagEnd(reader, start, words);
    if (end !== -1) return { start, end };
    position = start + 1;
  }
}

/** The arguments of one DeepSeek call, a ```json fence around them allowed. */
function deepseekArguments(text: string): string {
  let body = text.trim();
  if (body.startsWith('```')) {
    body = body.slice(3);
    if (body.startsWith('json')) body = body.slice(4);
    body = body.trimStart();
  }
  if (body.endsWith('```')) body = body.slice(0, -3).trimEnd();
  return body === '' ? '{}' : body;
}

/** DeepSeek R1 / V3.1 `<｜tool▁calls▁begin｜>…<｜tool▁call▁begin｜>name<｜tool▁sep｜>{…}<｜tool▁call▁end｜>`. */
function deepseek(scan: CallScan): void {
  const reader = scan.reader;
  let position = 0;
  for (;;) {
    const section = findDeepseekTag(reader, position, ['tool', 'calls', 'begin']);
    if (!section) return;
    const sectionEnd = findDeepseekTag(reader, section.end, ['tool', 'calls', 'end']);
    const innerEnd = sectionEnd?.start ?? reader.length;
    const calls: TextToolCall[] = [];
    let cursor = section.end;
    for (;;) {
      const begin = findDeepseekTag(reader, cursor, ['tool', 'call', 'begin'], innerEnd);
      if (!begin) break;
      const end = findDeepseekTag(reader, begin.end, ['tool', 'call', 'end'], innerEnd);
      if (!end) break;
      cursor = end.end;
      const separator = findDeepseekTag(reader, begin.end, ['tool', 'sep'], end.start);
      let name = reader.slice(begin.end, separator?.start ?? end.start).trim();
      let argumentsText = separator ? reader.slice(separator.end, end.start) : '';
      if (name === 'function') {
        const newline = argumentsText.indexOf('\n');
        name = (newline < 0 ? argumentsText : argumentsText.slice(0, newline)).trim();
        argumentsText = newline < 0 ? '' : argumentsText.slice(newline + 1);
      }
      const argumentsValue = reader.parse(deepseekArguments(argumentsText));
      if (isToolName(name) && isPlainObject(argumentsValue)) calls.push({ name, arguments: argumentsValue });
    }
    const end = sectionEnd?.end ?? reader.length;
    if (calls.length > 0) scan.claim(section.start, end, calls);
    position = end;
  }
}

/** Every extractor, most distinctive wrapper first; the bare-JSON readers come last. */
export const TEXT_CALL_EXTRACTORS: readonly ((scan: CallScan) => void)[] = [
  deepseek,
  kimi,
  minimax,
  harmony,
  jsonWrapper('<|START_ACTION|>', '<|END_ACTION|>'),
  hermes,
  functionTags,
  jsonWrapper('<TOOLCALL>', '</TOOLCALL>'),
  jsonWrapper('[TOOL_REQUEST]', '[END_TOOL_REQUEST]'),
  ...MARKER_AND_JSON_EXTRACTORS,
];
