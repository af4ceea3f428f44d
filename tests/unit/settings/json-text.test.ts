import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { locateJsonSyntaxError, MAX_SETTINGS_TEXT_LENGTH, parseJsonText } from '../../../src/settings/json-text';

const messageOf = (text: string): string => {
  const result = parseJsonText(text);
  if (result.ok) throw new Error('expected a syntax error');
  return result.error.message;
};

/** Valid JSON with one character cut out: mostly broken, sometimes still valid. */
const jsonWithOneCharacterRemoved = fc.tuple(fc.json(), fc.nat()).map(([text, index]) => {
  const at = index % Math.max(text.length, 1);
  return text.slice(0, at) + text.slice(at + 1);
});

describe('reading JSON text for import', () => {
  test.each([
    ['a trailing comma', '{\n  "version": 1,\n}', 'at line 3, column 1, expected a field name in double quotes but found "}"'],
    ['a string that never ends', '{ "version": 1, "x": "abc', 'at line 1, column 26, expected a closing quote but found the end of the text'],
    ['single quotes', "{ 'version': 1 }", 'at line 1, column 3, expected a field name in double quotes but found "\'"'],
    ['nothing at all', '', 'at line 1, column 1, expected a value (an object, list, string, number, true, false or null) but found the end of the text'],
    ['text after the document', '{ "version": 1 } x', 'at line 1, column 18, expected the end of the text but found "x"'],
    ['a comment', '{\n  // mine\n  "version": 1 }', 'at line 2, column 3, expected a field name in double quotes but found "/"'],
    ['a raw line break in a string', '{ "a": "one\ntwo" }', 'at line 1, column 12, expected no raw control character inside a string'],
  ])('%s is reported with its line and column', (_case, text, expected) => {
    expect(messageOf(text)).toContain(expected);
  });

  test('valid JSON is read as JSON.parse reads it', () => {
    expect(parseJsonText('{ "version": 1, "list": [1, -2.5e3, "\\u00e9", true, null] }')).toEqual({
      ok: true,
      value: { version: 1, list: [1, -2500, 'é', true, null] },
    });
  });

  test('text over the size limit is refused before parsing', () => {
    expect(messageOf(' '.repeat(MAX_SETTINGS_TEXT_LENGTH + 1))).toContain(`the limit is ${MAX_SETTINGS_TEXT_LENGTH}`);
  });

  test('the locator finds no error in any text JSON.parse accepts, and one in any text it refuses', () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.string(), jsonWithOneCharacterRemoved), (text) => {
        let parses = true;
        try {
          JSON.parse(text);
        } catch {
          parses = false;
        }
        const located = locateJsonSyntaxError(text);
        expect(located.offset === text.length && located.expected === 'the end of the text').toBe(parses);
      }),
      { numRuns: 1_000 },
    );
  });
});
