/**
 * Text calls that are JSON after a marker (harmony, Granite, Mistral, Llama's `<|python_tag|>`,
 * FireFunction, Functionary) or bare JSON (a fenced block, a whole answer, a line after prose).
 * Bare JSON is a call only when every name in it is a tool offered to that turn: a model showing
 * a user what a call looks like writes the same JSON. Each reader walks the body forward once.
 */
import { callsFromValue } from './text-call-objects';
import { isPlainObject, isSpace, type CallScan, type TextReader, type TextToolCall } from './text-scan';

const offered = (scan: CallScan, calls: readonly TextToolCall[]) => calls.every((call) => scan.toolNames.has(call.name));

/** Where `literal` ends if it stands at `at`, else -1. */
function after(reader: TextReader, literal: string, at: number): number {
  return reader.startsWith(literal, at) ? at + literal.length : -1;
}

/** gpt-oss harmony: `to=functions.name … <|message|>{…}`, the recipient before or after the channel. */
function harmony(scan: CallScan): void {
  const reader = scan.reader;
  const recipient = 'to=functions.';
  let floor = 0;
  let position = 0;
  // The first '<' after a recipient's name, remembered: recipients come in order, so no search reads
  // text an earlier one read (a run of recipients with no '<' after them was quadratic).
  let angle = -2;
  const nextAngle = (from: number): number => (angle === -1 || angle >= from ? angle : (angle = reader.find('<', from)));
  for (;;) {
    const at = reader.find(recipient, position);
    if (at === -1) return;
    position = at + recipient.length;
    const nameEnd = reader.readName(position);
    if (nameEnd === -1) continue;
    // The header may open with `<|start|>assistant` and a channel before the recipient.
    let start = reader.skipSpaceBack(at, floor);
    // Only a channel word right before the recipient counts (a run of at most 64 word characters): look no further back.
    const windowStart = Math.max(floor, start - '<|channel|>'.length - 64);
    const inWindow = reader.text.slice(windowStart, start).lastIndexOf('<|channel|>');
    const word = inWindow === -1 ? -1 : windowStart + inWindow;
    if (word !== -1 && start - word > '<|channel|>'.length && isWordRun(reader.text, word + '<|channel|>'.length, start)) start = word;
    if (start >= floor + '<|start|>assistant'.length && reader.text.startsWith('<|start|>assistant', start - '<|start|>assistant'.length)) start -= '<|start|>assistant'.length;
    let cursor = nextAngle(nameEnd);
    if (cursor === -1) return;
    const channel = after(reader, '<|channel|>', cursor);
    if (channel !== -1 && reader.readWord(channel) > channel) {
      cursor = reader.find('<', reader.readWord(channel));
      if (cursor === -1) return;
    }
    const constrain = after(reader, '<|constrain|>', cursor);
    if (constrain !== -1 && reader.readWord(constrain) > constrain) cursor = reader.readWord(constrain);
    const message = after(reader, '<|message|>', cursor);
    if (message === -1) continue;
    const json = reader.readJson(message);
    if (!json || !isPlainObject(json.value)) continue;
    const callEnd = after(reader, '<|call|>', reader.skipSpace(json.end));
    const end = callEnd === -1 ? json.end : callEnd;
    scan.claim(start, end, [{ name: reader.text.slice(position, nameEnd), arguments: json.value }]);
    floor = end;
    position = end;
  }
}

function isWordRun(text: string, start: number, end: number): boolean {
  if (end - start > 64) return false;
  for (let index = start; index < end; index += 1) if (!/\w/.test(text[index] as string)) return false;
  return true;
}

/** A marker followed directly by JSON calls (Granite `<|tool_call|>`, Mistral `[TOOL_CALLS][…]`). */
function markerThenJson(marker: string): (scan: CallScan) => void {
  return (scan) => {
    const reader = scan.reader;
    let position = 0;
    for (;;) {
      const at = reader.find(marker, position);
      if (at === -1) return;
      position = at + marker.length;
      const json = reader.readJson(position);
      const calls = json && callsFromValue(json.value, false);
      if (json && calls) {
        scan.claim(at, json.end, calls);
        position = json.end;
      }
    }
  };
}

/** FireFunction v2 ` functools[…]`, only at the start of the answer. */
function functools(scan: CallScan): void {
  const reader = scan.reader;
  const at = reader.skipSpace(0);
  const listStart = after(reader, 'functools', at);
  if (listStart === -1 || reader.text[listStart] !== '[') return;
  const json = reader.readJson(listStart);
  const calls = json && callsFromValue(json.value, false);
  if (json && calls) scan.claim(0, json.end, calls);
}

/** Mistral v11+ `[TOOL_CALLS]name[ARGS]{…}`, once per call. */
function mistralNamed(scan: CallScan): void {
  const reader = scan.reader;
  let position = 0;
  for (;;) {
    const at = reader.find('[TOOL_CALLS]', position);
    if (at === -1) return;
    position = at + '[TOOL_CALLS]'.length;
    const nameEnd = reader.readName(position);
    if (nameEnd === -1) continue;
    let cursor = nameEnd;
    let id: string | undefined;
    const idStart = after(reader, '[CALL_ID]', cursor);
    if (idStart !== -1) {
      cursor = reader.readWord(idStart);
      if (cursor > idStart) id = reader.text.slice(idStart, cursor);
      else cursor = nameEnd;
    }
    const argumentsStart = after(reader, '[ARGS]', cursor);
    if (argumentsStart === -1) continue;
    const json = reader.readJson(argumentsStart);
    if (!json || !isPlainObject(json.value)) continue;
    scan.claim(at, json.end, [{ name: reader.text.slice(position, nameEnd), arguments: json.value, ...(id ? { id } : {}) }]);
    position = json.end;
  }
}

/** `key="value", other=3` of Llama's builtin call syntax: split on commas outside quotes. */
function builtinArguments(text: string): Record<string, unknown> {
  const argumentsValue: Record<string, unknown> = {};
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index] as string;
    if (quoted && character === '\\') {
      current += character + (text[index + 1] ?? '');
      index += 1;
      continue;
    }
    if (character === '"') quoted = !quoted;
    if (character === ',' && !quoted) {
      parts.push(current);
      current = '';
    } else current += character;
  }
  parts.push(current);
  for (const part of parts) {
    const equals = part.indexOf('=');
    if (equals === -1) continue;
    const key = part.slice(0, equals).trim();
    const raw = part.slice(equals + 1).trim();
    if (!/^\w+$/.test(key) || raw === '') continue;
    try {
      argumentsValue[key] = JSON.parse(raw) as unknown;
    } catch {
      argumentsValue[key] = raw;
    }
  }
  return argumentsValue;
}

/** JSON calls one after another from `start`, separated by `;` or whitespace. */
function jsonCallSequence(reader: TextReader, start: number, requireArguments: boolean): { calls: TextToolCall[]; end: number; reached: number } | undefined {
  const calls: TextToolCall[] = [];
  let position = start;
  for (;;) {
    const json = reader.readJson(position);
    const found = json && callsFromValue(json.value, requireArguments);
    if (!json || !found) break;
    calls.push(...found);
    position = reader.skipSpace(json.end);
    if (reader.text[position] === ';') position += 1;
  }
  // How far the reading went: past a value that was read but is no call, or to the end when it does not close.
  const next = reader.skipSpace(position);
  const opensValue = reader.text[next] === '{' || reader.text[next] === '[';
  const reached = opensValue ? (reader.valueEnd(next) ?? reader.length) : next;
  return calls.length > 0 ? { calls, end: position, reached } : undefined;
}

/** Llama 3.x `<|python_tag|>` followed by JSON calls (`;`-separated) or `name.call(key="value")`. */
function pythonTag(scan: CallScan): void {
  const reader = scan.reader;
  let position = 0;
  for (;;) {
    const at = reader.find('<|python_tag|>', position);
    if (at === -1) return;
    position = at + '<|python_tag|>'.length;
    const nameStart = reader.skipSpace(position);
    const nameEnd = reader.readName(nameStart);
    // NAME.call(…): the name's characters take in `.call`, so it ends the name.
    const named = nameEnd === -1 ? '' : reader.text.slice(nameStart, nameEnd);
    if (named.endsWith('.call') && named.length > '.call'.length && reader.text[nameEnd] === '(') {
      const close = reader.find(')', nameEnd + 1);
      if (close !== -1) {
        scan.claim(at, close + 1, [{ name: named.slice(0, -'.call'.length), arguments: builtinArguments(reader.slice(nameEnd + 1, close)) }]);
        position = close + 1;
        continue;
      }
    }
    const sequence = jsonCallSequence(reader, position, false);
    if (sequence) {
      scan.claim(at, sequence.end, sequence.calls);
      position = sequence.end;
    }
  }
}

/** Functionary v3.2 `>>>name\n{…}`; the first call has no `>>>` (the prompt holds it). */
function functionary(scan: CallScan): void {
  const reader = scan.reader;
  const segments = reader.text.split('>>>');
  scan.meter.steps += reader.length;
  let offset = 0;
  segments.forEach((segment, index) => {
    const segmentStart = offset;
    offset += segment.length + 3;
    const nameEnd = reader.readName(segmentStart);
    if (nameEnd === -1 || nameEnd >= segmentStart + segment.length || reader.text[nameEnd] !== '\n') return;
    const name = reader.text.slice(segmentStart, nameEnd);
    if (index === 0 && !(scan.toolNames.has(name) || segments.length > 1)) return;
    const segmentEnd = segmentStart + segment.length;
    const json = reader.readJson(nameEnd + 1);
    if (!json || json.end > segmentEnd || !isPlainObject(json.value) || reader.skipSpace(json.end, segmentEnd) !== segmentEnd) return;
    scan.claim(index === 0 ? segmentStart : segmentStart - 3, segmentEnd, [{ name, arguments: json.value }]);
  });
  if (scan.spans.length > 0 && scan.body.startsWith('all\n')) scan.functionaryHeader = true;
}

/** A fenced code block (```` ``` ```` or ```` ```json ````) holding nothing but calls of offered tools. */
function fencedJson(scan: CallScan): void {
  const reader = scan.reader;
  let position = 0;
  for (;;) {
    const open = reader.find('```', position);
    if (open === -1) return;
    let cursor = open + 3;
    if (reader.startsWith('json', cursor)) cursor += 4;
    while (reader.text[cursor] === ' ' || reader.text[cursor] === '\t') cursor += 1;
    if (reader.text[cursor] !== '\n') {
      position = open + 3;
      continue;
    }
    const close = reader.find('```', cursor + 1);
    if (close === -1) return;
    position = close + 3;
    const calls = callsFromValue(reader.parse(reader.text.slice(cursor + 1, close).trim()), true);
    if (calls && offered(scan, calls)) scan.claim(open, close + 3, calls);
  }
}

/**
 * An answer that is nothing but call JSON (Llama 3.x without its tag; several joined by `;`), or
 * prose ending in call JSON on a line of its own, naming tools on offer. A line inside a JSON value
 * already read is part of that value, not a start of its own.
 */
function wholeJson(scan: CallScan): void {
  const reader = scan.reader;
  let lineStart = 0;
  let readTo = 0;
  while (lineStart < reader.length) {
    const start = reader.skipSpace(lineStart);
    const character = reader.text[start];
    if (start >= readTo && (character === '{' || character === '[')) {
      const sequence = jsonCallSequence(reader, start, true);
      if (sequence && reader.skipSpace(sequence.end) === reader.length && offered(scan, sequence.calls)) {
        scan.claim(start, sequence.end, sequence.calls);
        return;
      }
      readTo = sequence ? sequence.reached : (reader.valueEnd(start) ?? reader.length);
      if (readTo >= reader.length) return;
    }
    const newline = reader.find('\n', Math.max(start, readTo));
    if (newline === -1) return;
    lineStart = newline + 1;
    while (lineStart < reader.length && isSpace(reader.text[lineStart]) && reader.text[lineStart] !== '\n') lineStart += 1;
  }
}

/** Harmony runs before the wrapper formats (its header can hold other markup). */
export { harmony };

/** The marker and bare-JSON readers, in the order they run (after the wrapper formats). */
export const MARKER_AND_JSON_EXTRACTORS: readonly ((scan: CallScan) => void)[] = [
  markerThenJson('<|tool_call|>'),
  markerThenJson('[TOOL_CALLS]'),
  mistralNamed,
  pythonTag,
  functools,
  functionary,
  fencedJson,
  wholeJson,
];
