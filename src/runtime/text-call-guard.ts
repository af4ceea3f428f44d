import { TEXT_CALL_MARKERS } from '../model/text-tool-calls';

/**
 * Where in streamed text a tool call written as text may begin (Hermes `<tool_call>`, a fenced JSON
 * call, a bare JSON object, Mistral's `[TOOL_CALLS]`, Llama's `<|python_tag|>`, and every other
 * opening the text-call parser knows), so the reply stream holds it back until that is resolved.
 * The markers are the parser's own; this module adds the position and a closer look at fences.
 */

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
 * Reads the whole text; a streaming gate uses {@link createReplyHold}, which resumes.
 */
export function heldFrom(text: string): number {
  return createReplyHold(true, { jsonOnLines: false }).heldFrom(text);
}

/** Markup the final reading drops that no text call opens with: reasoning closes, harmony framing. */
const FRAMING_MARKERS = ['</think>', '<|channel|>', '<|start|>', '<|constrain|>', '<|message|>', '<|END_THINKING|>'];
const HELD_MARKERS = [...TEXT_CALL_MARKERS, ...FRAMING_MARKERS];
const HELD_FIRST_CHARACTERS = new Set([...HELD_MARKERS, FENCE].map((marker) => marker[0] as string));

/** The held-back part of one streamed turn, read in one pass over the turn (see {@link ReplyHold.heldFrom}). */
export interface ReplyHold {
  /** Where the held part of `body` begins (`body` only grows between calls), or its length. */
  heldFrom(body: string): number;
}

/**
 * A resuming hold for one turn. `toolsOffered`: a bare JSON call (at the start, or on a line of its
 * own with `jsonOnLines`) can be a call only then, so only then is it held; so is an answer that
 * opens with one of `toolNames` on a line of its own (Functionary v3.2). Each position is looked
 * at once; a tentative hold (the start of a marker at the end, a fence not yet closed) is looked at
 * again only from where the last look stopped.
 *
 * @example
 * const hold = createReplyHold(true);
 * hold.heldFrom('Sure. <tool'); // → 6
 */
export function createReplyHold(toolsOffered: boolean, options: { jsonOnLines?: boolean; toolNames?: readonly string[] } = {}): ReplyHold {
  const jsonOnLines = options.jsonOnLines ?? true;
  /** Functionary v3.2's first call has its `>>>` in the prompt: the answer opens with a tool's name and a line break. */
  const leadingNames = toolsOffered ? (options.toolNames ?? []).map((name) => `${name}\n`) : [];
  /** Positions before this one are safe to show. */
  let checked = 0;
  /** A definite hold: a marker or a call opening; everything from here waits for the turn's end. */
  let held = -1;
  /** Whether only whitespace precedes `checked` on its line (and in the text). */
  let lineBlank = true;
  let textBlank = true;
  /** Where the search for a tentative fence's close has got to. */
  let fenceSearch = -1;

  const classify = (body: string, at: number): 'held' | 'maybe' | 'no' => {
    const character = body[at] as string;
    if (toolsOffered && (character === '{' || character === '[') && (textBlank || (jsonOnLines && lineBlank))) return 'held';
    if (textBlank && body.startsWith('functools', at)) return 'held';
    if (textBlank) {
      for (const head of leadingNames) {
        if (body.startsWith(head, at)) return 'held';
        if (at + head.length > body.length && head.startsWith(body.slice(at))) return 'maybe';
      }
    }
    if (textBlank && 'functools'.startsWith(body.slice(at, at + 9)) && at + 9 > body.length) return 'maybe';
    if (body.startsWith(FENCE, at)) return fenceAt(body, at);
    if (!HELD_FIRST_CHARACTERS.has(character)) return 'no';
    for (const marker of HELD_MARKERS) {
      if (body.startsWith(marker, at)) return 'held';
      if (at + marker.length > body.length && marker.startsWith(body.slice(at))) return 'maybe';
    }
    if (FENCE.startsWith(body.slice(at)) && at + FENCE.length > body.length) return 'maybe';
    return 'no';
  };

  const fenceAt = (body: string, at: number): 'held' | 'maybe' | 'no' => {
    const lineEnd = body.indexOf('\n', at);
    if (lineEnd === -1) {
      const info = body.slice(at + FENCE.length).trim().toLowerCase();
      return info === '' || 'json'.startsWith(info) || info.startsWith('json') ? 'maybe' : 'no';
    }
    const info = body.slice(at + FENCE.length, lineEnd).trim().toLowerCase();
    if (info !== '' && info !== 'json') return 'no';
    let first = lineEnd + 1;
    while (first < body.length && /\s/.test(body[first] as string)) first += 1;
    if (first === body.length) return 'maybe';
    if (body[first] !== '{' && body[first] !== '[') return 'no';
    const close = body.indexOf(FENCE, Math.max(fenceSearch, lineEnd + 1));
    if (close === -1) {
      fenceSearch = Math.max(lineEnd + 1, body.length - FENCE.length);
      return 'maybe';
    }
    fenceSearch = -1;
    return toolsOffered && fencedBodyIsCall(body.slice(lineEnd + 1, close)) ? 'held' : 'no';
  };

  return {
    heldFrom(body) {
      if (held !== -1) return held;
      for (let at = checked; at < body.length; at += 1) {
        const character = body[at] as string;
        const verdict = classify(body, at);
        if (verdict === 'held') {
          held = at;
          return at;
        }
        if (verdict === 'maybe') return at;
        fenceSearch = -1;
        checked = at + 1;
        if (character === '\n') lineBlank = true;
        else if (!/\s/.test(character)) {
          lineBlank = false;
          textBlank = false;
        }
      }
      return body.length;
    },
  };
}
