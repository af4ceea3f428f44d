import type { SettingsIssue } from './settings-errors';

/** The largest settings or profile text accepted for import (a document is a few kilobytes). */
export const MAX_SETTINGS_TEXT_LENGTH = 1_000_000;

export type JsonTextResult = { ok: true; value: unknown } | { ok: false; error: SettingsIssue };

/**
 * Parses JSON text for import. On a syntax error the message gives line and column, worked out
 * here because engines differ in whether their own message carries a position.
 */
export function parseJsonText(text: string): JsonTextResult {
  if (text.length > MAX_SETTINGS_TEXT_LENGTH) {
    return {
      ok: false,
      error: {
        path: '',
        message: `The text is ${text.length} characters long; the limit is ${MAX_SETTINGS_TEXT_LENGTH}. Import a settings document, not a data file.`,
      },
    };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    const { offset, expected } = locateJsonSyntaxError(text);
    const { line, column } = lineAndColumn(text, offset);
    const found = offset >= text.length ? 'the end of the text' : JSON.stringify(text[offset]);
    return {
      ok: false,
      error: {
        path: '',
        message: `The text is not valid JSON: at line ${line}, column ${column}, expected ${expected} but found ${found}. Fix the JSON there (a missing comma, quote or bracket is the usual cause).`,
      },
    };
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return { line, column };
}

class JsonSyntaxStop {
  constructor(
    readonly offset: number,
    readonly expected: string,
  ) {}
}

/** Walks the text as a JSON value and reports the first place it breaks the grammar. */
export function locateJsonSyntaxError(text: string): { offset: number; expected: string } {
  let position = 0;
  const fail = (expected: string): never => {
    throw new JsonSyntaxStop(position, expected);
  };
  const skipWhitespace = (): void => {
    while (position < text.length && ' \t\n\r'.includes(text[position] as string)) position += 1;
  };
  const expectLiteral = (word: string): void => {
    for (const character of word) {
      if (text[position] !== character) fail(`"${word}"`);
      position += 1;
    }
  };
  const readString = (): void => {
    position += 1;
    for (;;) {
      const character = text[position];
      if (character === undefined) fail('a closing quote');
      if (character === '"') {
        position += 1;
        return;
      }
      if (character === '\\') {
        position += 1;
        const escaped = text[position];
        if (escaped === 'u') {
          for (let index = 1; index <= 4; index += 1) {
            if (!/[0-9a-fA-F]/.test(text[position + index] ?? '')) {
              position += index;
              fail('four hex digits after \\u');
            }
          }
          position += 5;
          continue;
        }
        if (escaped === undefined || !'"\\/bfnrt'.includes(escaped)) fail('a valid escape after \\');
        position += 1;
        continue;
      }
      if ((character as string) < ' ') fail('no raw control character inside a string (write \\n for a line break)');
      position += 1;
    }
  };
  const readNumber = (): void => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(position));
    if (!match || match[0] === '-' || match[0] === '') fail('a number');
    position += (match as RegExpExecArray)[0].length;
  };
  const readValue = (): void => {
    skipWhitespace();
    const character = text[position];
    if (character === '{') return readContainer('}', true);
    if (character === '[') return readContainer(']', false);
    if (character === '"') return readString();
    if (character === 't') return expectLiteral('true');
    if (character === 'f') return expectLiteral('false');
    if (character === 'n') return expectLiteral('null');
    if (character !== undefined && /[-0-9]/.test(character)) return readNumber();
    fail('a value (an object, list, string, number, true, false or null)');
  };
  const readContainer = (closing: string, isObject: boolean): void => {
    position += 1;
    skipWhitespace();
    if (text[position] === closing) {
      position += 1;
      return;
    }
    for (;;) {
      if (isObject) {
        skipWhitespace();
        if (text[position] !== '"') fail('a field name in double quotes');
        readString();
        skipWhitespace();
        if (text[position] !== ':') fail('":"');
        position += 1;
      }
      readValue();
      skipWhitespace();
      if (text[position] === ',') {
        position += 1;
        continue;
      }
      if (text[position] === closing) {
        position += 1;
        return;
      }
      fail(`"," or "${closing}"`);
    }
  };
  try {
    readValue();
    skipWhitespace();
    if (position < text.length) fail('the end of the text');
    return { offset: text.length, expected: 'the end of the text' };
  } catch (stop) {
    if (stop instanceof JsonSyntaxStop) return { offset: stop.offset, expected: stop.expected };
    throw stop;
  }
}
