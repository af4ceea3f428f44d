/**
 * The reading primitives every text-call extractor uses, linear by construction: each search moves
 * forward only and remembers its last answer, JSON is measured by one bracket walk per start (a
 * start already walked is not walked again), and every character looked at counts one step on a
 * shared meter, so a test can check that the work grows with the text, not with its square.
 */
import { isPlainObject } from './json-scan';

/** Past this many characters a model's answer is plain text: no text tool calls are looked for. */
export const MAX_PARSED_CHARS = 256 * 1024;

/** The longest tool name a text call may carry. */
const MAX_NAME_CHARS = 128;

/** Counts the characters the readers looked at. */
export class StepMeter {
  steps = 0;
}

/** Whether a character is whitespace as `\s` means it (ASCII first: no regex for the common case). */
export function isSpace(character: string | undefined): boolean {
  if (character === undefined) return false;
  const code = character.charCodeAt(0);
  if (code === 32 || (code >= 9 && code <= 13)) return true;
  return code > 127 && /\s/.test(character);
}

function isWordCharacter(character: string | undefined): boolean {
  return character !== undefined && /\w/.test(character);
}

function isNameCharacter(character: string | undefined): boolean {
  return isWordCharacter(character) || character === '.' || character === '-';
}

function isNameStart(character: string | undefined): boolean {
  return character !== undefined && /[A-Za-z_]/.test(character);
}

/** A tool name (`[A-Za-z_][\w.-]*`, at most 128 characters), tested without a regex over it. */
export function isToolName(name: string): boolean {
  if (name.length === 0 || name.length > MAX_NAME_CHARS || !isNameStart(name[0])) return false;
  for (let index = 1; index < name.length; index += 1) if (!isNameCharacter(name[index])) return false;
  return true;
}

/** A read-only view of one text with forward searches that remember where they ended. */
export class TextReader {
  /** Per needle: the last search's start and answer (-1: not found to the end). */
  private readonly lastFind = new Map<string, { from: number; found: number }>();
  /** Per start: where a JSON value there ends (undefined: it does not close). */
  private readonly jsonEnds = new Map<number, number | undefined>();
  /**
   * Bracket-walk steps left: a few times the text's length. Walks from starts inside another walk's
   * strings are not shared, so this bounds them all; an answer that spends it is plain text past it.
   */
  private walkBudget: number;
  /**
   * Characters `JSON.parse` may still be given, bounded as the walks are. Each parse reads its whole piece, and
   * pieces from nested markers overlap (`<|tool_call|>{` a thousand times, then `]` as often: each
   * piece runs to the end), so without a bound their sum grows with the square of the text.
   */
  private parseBudget: number;

  constructor(
    readonly text: string,
    readonly meter: StepMeter,
  ) {
    this.walkBudget = 4 * text.length + 4096;
    this.parseBudget = 4 * text.length + 4096;
  }

  get length(): number {
    return this.text.length;
  }

  /** `text.indexOf(needle, from)`, reusing the last answer for the same needle when it still holds. */
  find(needle: string, from: number): number {
    const last = this.lastFind.get(needle);
    if (last && from >= last.from && (last.found === -1 || from <= last.found)) return last.found;
    const found = this.text.indexOf(needle, from);
    this.meter.steps += (found === -1 ? this.text.length : found + needle.length) - from + 1;
    this.lastFind.set(needle, { from, found });
    return found;
  }

  startsWith(literal: string, at: number): boolean {
    this.meter.steps += literal.length;
    return this.text.startsWith(literal, at);
  }

  /** The first position at or after `from` that is not whitespace (`limit` at most). */
  skipSpace(from: number, limit = this.text.length): number {
    let position = from;
    while (position < limit && isSpace(this.text[position])) position += 1;
    this.meter.steps += position - from + 1;
    return position;
  }

  /** The first position at or before `from` (exclusive end) that follows no whitespace, not below `floor`. */
  skipSpaceBack(from: number, floor: number): number {
    let position = from;
    while (position > floor && isSpace(this.text[position - 1])) position -= 1;
    this.meter.steps += from - position + 1;
    return position;
  }

  /** Where a tool name starting at `from` ends, or -1 when none starts there. */
  readName(from: number): number {
    if (!isNameStart(this.text[from])) return -1;
    let position = from + 1;
    while (position < this.text.length && position - from < MAX_NAME_CHARS && isNameCharacter(this.text[position])) position += 1;
    this.meter.steps += position - from;
    return isNameCharacter(this.text[position]) ? -1 : position;
  }

  /** Where a run of word characters starting at `from` ends (`from` itself when there is none). */
  readWord(from: number, extra = ''): number {
    let position = from;
    while (position < this.text.length && (isWordCharacter(this.text[position]) || extra.includes(this.text[position] as string))) position += 1;
    this.meter.steps += position - from + 1;
    return position;
  }

  slice(start: number, end?: number): string {
    const part = this.text.slice(start, end);
    this.meter.steps += part.length;
    return part;
  }

  /**
   * The JSON value that starts at `from` (after whitespace) and where it ends, if it closes and
   * parses. Each start is walked at most once; strings (with escapes) are skipped.
   */
  readJson(from: number): { value: unknown; end: number } | undefined {
    const start = this.skipSpace(from);
    const end = this.jsonEnd(start);
    if (end === undefined) return undefined;
    const value = this.parse(this.text.slice(start, end));
    return value === undefined ? undefined : { value, end };
  }

  /** Where the brackets of a JSON value starting at `from` (after whitespace) close, if they do. */
  valueEnd(from: number): number | undefined {
    return this.jsonEnd(this.skipSpace(from));
  }

  /** JSON.parse of a piece of this text, counted; undefined when it does not parse or the budget is spent. */
  parse(piece: string): unknown {
    if (piece.length > this.parseBudget) return undefined;
    this.parseBudget -= piece.length;
    this.meter.steps += piece.length + 1;
    try {
      return JSON.parse(piece) as unknown;
    } catch {
      return undefined;
    }
  }

  private jsonEnd(start: number): number | undefined {
    if (this.jsonEnds.has(start)) return this.jsonEnds.get(start);
    const end = this.walkBrackets(start);
    this.jsonEnds.set(start, end);
    return end;
  }

  /** One walk over balanced brackets; a start inside a walk already made reuses that walk's answer. */
  private walkBrackets(start: number): number | undefined {
    const opener = this.text[start];
    if (opener !== '{' && opener !== '[') return undefined;
    let depth = 0;
    let inString = false;
    /** Openings met on the way, with their depth, so their ends are known when they close. */
    const open: number[] = [];
    for (let index = start; index < this.text.length; index += 1) {
      this.meter.steps += 1;
      this.walkBudget -= 1;
      if (this.walkBudget < 0) return undefined;
      const character = this.text[index];
      if (inString) {
        if (character === '\\') index += 1;
        else if (character === '"') inString = false;
        continue;
      }
      if (character === '"') inString = true;
      else if (character === '{' || character === '[') {
        depth += 1;
        open.push(index);
      } else if (character === '}' || character === ']') {
        depth -= 1;
        const opened = open.pop();
        if (opened !== undefined && opened !== start) this.jsonEnds.set(opened, index + 1);
        if (depth === 0) return index + 1;
      }
    }
    // Nothing opened on this walk closes before the end: no walk from inside it can close either.
    for (const opened of open) this.jsonEnds.set(opened, undefined);
    return undefined;
  }
}

/** A span of the body that holds calls: [start, end) offsets. */
export interface CallSpan {
  start: number;
  end: number;
  calls: TextToolCall[];
}

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

/**
 * What the extractors found in one body. Found calls are recorded as spans; each extractor reads
 * the body with every span found before it blanked out (`reader`, rebuilt once per extractor that
 * found something, so offsets stay valid and no extractor reads another's call).
 */
export class CallScan {
  readonly spans: CallSpan[] = [];
  readonly malformed: (MalformedTextCall & { start: number; end: number })[] = [];
  /** Functionary's `all\n` recipient header opens the text: framing, not words for the user. */
  functionaryHeader = false;
  readonly meter = new StepMeter();
  private current: TextReader;
  private claimedAtBuild = 0;

  constructor(
    readonly body: string,
    readonly toolNames: ReadonlySet<string>,
  ) {
    this.current = new TextReader(body, this.meter);
  }

  /** The body with the spans claimed so far blanked out. */
  get reader(): TextReader {
    if (this.spans.length !== this.claimedAtBuild) {
      const sorted = [...this.spans].sort((first, second) => first.start - second.start);
      let masked = '';
      let position = 0;
      for (const span of sorted) {
        masked += this.body.slice(position, span.start) + ' '.repeat(span.end - span.start);
        position = span.end;
      }
      masked += this.body.slice(position);
      this.meter.steps += this.body.length;
      this.current = new TextReader(masked, this.meter);
      this.claimedAtBuild = this.spans.length;
    }
    return this.current;
  }

  claim(start: number, end: number, calls: TextToolCall[]): void {
    this.spans.push({ start, end, calls });
  }

  reportMalformed(start: number, end: number, inner: string): void {
    const name = guessName(inner);
    this.malformed.push({ start, end, text: this.body.slice(start, end), ...(name === undefined ? {} : { name }) });
  }
}

/** The tool name in a call that could not be read, when it can be made out (`"name": "…"`). */
function guessName(text: string): string | undefined {
  const head = text.slice(0, 2000);
  for (const key of ['"name"', '"tool_name"', '"tool"']) {
    const at = head.indexOf(key);
    if (at === -1) continue;
    let position = at + key.length;
    while (isSpace(head[position])) position += 1;
    if (head[position] !== ':') continue;
    position += 1;
    while (isSpace(head[position])) position += 1;
    if (head[position] !== '"') continue;
    const close = head.indexOf('"', position + 1);
    if (close > position + 1) return head.slice(position + 1, close);
  }
  return undefined;
}

/** Whether a value is a plain object (JSON arguments). */
export { isPlainObject };
