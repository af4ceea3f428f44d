import { TEXT_CALL_MARKERS } from '../model/text-tool-calls';

/**
 * Where in streamed text a tool call written as text may begin (Hermes `<tool_call>`, a fenced JSON
 * call, a bare JSON object, Mistral's `[TOOL_CALLS]`, Llama's `<|python_tag|>`, and every other
 * opening the text-call parser knows), so the reply stream holds it back until that is resolved.
 * The markers are the parser's own; this module adds the position and a closer look at fences.
 */

/** The first character of every marker: only there can a held part begin. */
const MARKER_FIRST_CHARACTERS = new Set([...TEXT_CALL_MARKERS, '```'].map((marker) => marker[0] as string));
const FENCE = '```';

/** A fenced block's body is a call when it is one JSON object (or list of them) naming a function. */
function fencedBodyIsCall(body: string): boolean {
  try {
    const value: unknown = JSON.parse(body);
    const calls = Array.isArray(value) ? value : [value];
    return calls.length > 0 && calls.every((call) => typeof call === 'object' && call !== null && 'name' in call);
  } catch {
    return false;
  }
}

/** Whether text starting with a fence may still be a fenced call. */
function fenceMayBeCall(text: string): boolean {
  const lineEnd = text.indexOf('\n');
  if (lineEnd === -1) {
    const info = text.slice(FENCE.length).trim().toLowerCase();
    return info === '' || 'json'.startsWith(info) || info.startsWith('json');
  }
  const info = text.slice(FENCE.length, lineEnd).trim().toLowerCase();
  if (info !== '' && info !== 'json') return false;
  const rest = text.slice(lineEnd + 1);
  const trimmed = rest.trimStart();
  if (trimmed === '') return true;
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return false;
  const close = rest.indexOf(FENCE);
  return close === -1 || fencedBodyIsCall(rest.slice(0, close));
}

/**
 * Whether `textSoFar`, read from its start, may be (the beginning of) a text tool call: it opens
 * with one of the markers, with `{` (a message that is only a JSON call), or with a fence that may
 * hold a JSON call; or it is still too short to tell (a prefix of a marker).
 *
 * @example
 * mayOpenWithTextCall('<tool_call>{"name"'); // true
 * mayOpenWithTextCall('<too'); // true: it may become a marker
 * mayOpenWithTextCall('Hello'); // false
 */
export function mayOpenWithTextCall(textSoFar: string): boolean {
  const text = textSoFar.trimStart();
  if (text === '') return false;
  if (text.startsWith('{')) return true;
  if (text.startsWith(FENCE)) return fenceMayBeCall(text);
  if (FENCE.startsWith(text)) return true;
  return TEXT_CALL_MARKERS.some((marker) => text.startsWith(marker) || marker.startsWith(text));
}

/**
 * Where in the turn's text the held-back part begins: the first place a text tool call may start
 * (a bare JSON object only at the very start), or the text's length when all of it may be shown.
 */
export function heldFrom(text: string): number {
  if (mayOpenWithTextCall(text)) return text.trimStart() === '' ? text.length : 0;
  for (let index = 1; index < text.length; index += 1) {
    if (!MARKER_FIRST_CHARACTERS.has(text[index] as string)) continue;
    const rest = text.slice(index);
    if (!rest.startsWith('{') && mayOpenWithTextCall(rest)) return index;
  }
  return text.length;
}
