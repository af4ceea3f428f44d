/**
 * A tool call from a parsed JSON value, and the small readers of XML-ish call bodies the wrapper
 * formats share (`<parameter=…>`, GLM's arg pairs). Every reader walks its text forward once.
 */
import { parseJsonOrUndefined } from './json-scan';
import { isPlainObject, isToolName, TextReader, type StepMeter, type TextToolCall } from './text-scan';

/**
 * A call from a parsed object: `{name, arguments}` (arguments an object or a JSON string),
 * `{name, parameters}` (Llama), `{tool_name, parameters}` (Command R), or OpenAI's
 * `{type: "function", function: {...}}`. Bare JSON must name its arguments to count as a call.
 */
export function callFromObject(value: unknown, requireArguments: boolean): TextToolCall | undefined {
  if (!isPlainObject(value)) return undefined;
  const inner = isPlainObject(value.function) ? value.function : value;
  const name = typeof inner.name === 'string' ? inner.name : typeof inner.tool_name === 'string' ? inner.tool_name : undefined;
  if (name === undefined || !isToolName(name)) return undefined;
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
export function parameterValue(raw: string): unknown {
  const start = raw.startsWith('\n') ? 1 : 0;
  const end = raw.length > start && raw.endsWith('\n') ? raw.length - 1 : raw.length;
  const text = raw.slice(start, end);
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return parseJsonOrUndefined(trimmed) ?? text;
  return text;
}

/**
 * Each `open` NAME `separator` VALUE `close` in `text` (`<parameter=name>value</parameter>`,
 * `<parameter name="name">value</parameter>`): the pairs, read forward once.
 */
export function taggedPairs(reader: TextReader, open: string, separator: string, close: string, from = 0, to = reader.length): Record<string, unknown> {
  const pairs: Record<string, unknown> = {};
  let position = from;
  for (;;) {
    const start = reader.find(open, position);
    if (start === -1 || start >= to) return pairs;
    const nameStart = start + open.length;
    const nameEnd = reader.find(separator, nameStart);
    if (nameEnd === -1 || nameEnd >= to) return pairs;
    const valueStart = nameEnd + separator.length;
    const valueEnd = reader.find(close, valueStart);
    if (valueEnd === -1 || valueEnd + close.length > to) return pairs;
    if (nameEnd > nameStart) pairs[reader.slice(nameStart, nameEnd).trim()] = parameterValue(reader.slice(valueStart, valueEnd));
    position = valueEnd + close.length;
  }
}

/** `<function=name>` then JSON arguments or `<parameter=…>` pairs (Functionary v3.1, Qwen3-Coder). */
export function functionTagCall(name: string, body: string, meter: StepMeter): TextToolCall[] | undefined {
  const trimmed = body.trim();
  if (trimmed === '' || trimmed.startsWith('{')) {
    const argumentsValue = trimmed === '' ? {} : parseJsonOrUndefined(trimmed);
    return isPlainObject(argumentsValue) ? [{ name, arguments: argumentsValue }] : undefined;
  }
  return [{ name, arguments: taggedPairs(new TextReader(trimmed, meter), '<parameter=', '>', '</parameter>') }];
}

/** GLM 4.5 `name <arg_key>k</arg_key><arg_value>v</arg_value>…`: every pair, nothing else after the name. */
export function glmCall(reader: TextReader): TextToolCall[] | undefined {
  const nameEnd = reader.readName(0);
  if (nameEnd === -1) return undefined;
  const argumentsValue: Record<string, unknown> = {};
  let position = reader.skipSpace(nameEnd);
  while (position < reader.length) {
    if (!reader.startsWith('<arg_key>', position)) return undefined;
    const keyEnd = reader.find('</arg_key>', position);
    if (keyEnd === -1) return undefined;
    const valueOpen = reader.skipSpace(keyEnd + '</arg_key>'.length);
    if (!reader.startsWith('<arg_value>', valueOpen)) return undefined;
    const valueEnd = reader.find('</arg_value>', valueOpen);
    if (valueEnd === -1) return undefined;
    argumentsValue[reader.slice(position + '<arg_key>'.length, keyEnd).trim()] = parameterValue(reader.slice(valueOpen + '<arg_value>'.length, valueEnd));
    position = reader.skipSpace(valueEnd + '</arg_value>'.length);
  }
  return [{ name: reader.slice(0, nameEnd), arguments: argumentsValue }];
}

/** Calls inside an explicit wrapper: JSON, `<function=name>` (with JSON or `<parameter=…>`), or GLM's arg pairs. */
export function wrappedCalls(inner: string, meter: StepMeter): TextToolCall[] | undefined {
  const text = inner.trim();
  const reader = new TextReader(text, meter);
  if (text.startsWith('{') || text.startsWith('[')) return callsFromValue(reader.parse(text), false);
  if (text.startsWith('<function=')) {
    const nameEnd = reader.readName('<function='.length);
    if (nameEnd === -1 || text[nameEnd] !== '>') return undefined;
    const bodyEnd = text.endsWith('</function>') ? text.length - '</function>'.length : text.length;
    return functionTagCall(text.slice('<function='.length, nameEnd), text.slice(nameEnd + 1, Math.max(bodyEnd, nameEnd + 1)), meter);
  }
  return glmCall(reader);
}
