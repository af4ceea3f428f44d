import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { mayBeToolCallStart, parseTextToolCalls } from '../../../src/model/text-tool-calls';

const corpusEntry = z.object({
  id: z.string(),
  raw: z.string(),
  calls: z.array(z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()) })),
  text: z.string(),
  visibleText: z.string().optional(),
  reasoning: z.string().optional(),
  callIds: z.array(z.string()).optional(),
});
const corpus = z.array(corpusEntry).parse(JSON.parse(readFileSync(new URL('../../fixtures/corpora/text-tool-calls.json', import.meta.url), 'utf8')));
const corpusToolNames = ['agent_delegate', 'agent_await', 'workspace_write', 'task_return'];

describe('text tool calls: the real-world corpus', () => {
  test('the corpus is all there', () => {
    expect(corpus.length).toBe(35);
    expect(corpus.filter((entry) => entry.calls.length === 0).length).toBe(4);
  });

  test.each(corpus.map((entry) => [entry.id, entry] as const))('%s', (_id, entry) => {
    const actual = parseTextToolCalls(entry.raw, { toolNames: corpusToolNames });
    expect(actual.calls.map(({ name, arguments: argumentsValue }) => ({ name, arguments: argumentsValue }))).toEqual(entry.calls);
    expect(actual.text).toBe(entry.text);
    expect(actual.visibleText).toBe(entry.visibleText ?? entry.text);
    expect(actual.reasoning).toBe(entry.reasoning ?? '');
    if (entry.callIds) expect(actual.calls.map((call) => call.id)).toEqual(entry.callIds);
  });

  test('a broken call is reported as malformed, with its tool name when it can be made out', () => {
    const broken = corpus.find((entry) => entry.id === 'malformed-broken-json');
    const actual = parseTextToolCalls(broken?.raw ?? '');
    expect(actual.malformed).toEqual([{ text: broken?.raw, name: 'workspace_write' }]);
  });
});

describe('text tool calls: what is not a call', () => {
  test('prose, a JSON answer without arguments and a fenced code sample stay text', () => {
    for (const content of ['Hello there.', '{"name": "Alice", "age": 30}', '```js\nconsole.log(1)\n```', '']) {
      const actual = parseTextToolCalls(content);
      expect(actual.calls).toEqual([]);
      expect(actual.text).toBe(content.trim());
    }
  });

  test('an answer with no text (a native tool call\'s) holds nothing: no call, no text, no reasoning', () => {
    for (const content of ['', '  \n\t ']) {
      expect(parseTextToolCalls(content, { toolNames: ['agent_list'] })).toEqual({
        calls: [],
        text: '',
        visibleText: '',
        visibleWithoutMalformed: '',
        reasoning: '',
        reasoningClosedBare: false,
        malformed: [],
        steps: content.length,
      });
    }
  });

  test('prose ending in call JSON is a call only when it names a tool on offer', () => {
    const content = 'I will ask the critic.\n{"name": "agent_list", "arguments": {}}';
    expect(parseTextToolCalls(content, { toolNames: ['agent_list'] })).toMatchObject({ calls: [{ name: 'agent_list', arguments: {} }], text: 'I will ask the critic.' });
    expect(parseTextToolCalls(content, { toolNames: ['agent_delegate'] }).calls).toEqual([]);
  });

  test('reasoning in <think> is split off the visible text', () => {
    const actual = parseTextToolCalls('<think>\nShort and kind.\n</think>\n\nHello! How can I help?');
    expect(actual).toMatchObject({ reasoning: 'Short and kind.', visibleText: 'Hello! How can I help?', calls: [] });
  });
});

describe('mayBeToolCallStart', () => {
  test.each([
    ['{"name": "agent', true],
    ['  [', true],
    ['I will delegate.\n<tool_call>', true],
    ['I will delegate.\n<tool_', true],
    ['I will delegate.\n<', true],
    ['Here:\n```json\n{', true],
    ['Here:\n``', true],
    ['[TOOL_CALLS]', true],
    ['<|python_tag|>{"name"', true],
    ['<think>still thinking', true],
    ['<think>done</think>\nHello', false],
    ['<think>done</think>\n<tool_call>', true],
    ['Hello, traveller. The road is long', false],
    ['A sample:\n```js\nlet x = 1;', false],
    ['', false],
  ])('%j → %s', (text, expected) => {
    expect(mayBeToolCallStart(text)).toBe(expected);
  });
});
