import { describe, expect, test } from 'vitest';
import { heldFrom, mayOpenWithTextCall } from '../../../src/runtime/text-call-guard';

describe('mayOpenWithTextCall', () => {
  test.each([
    '<tool_call>{"name": "agent_delegate"',
    '<tool',
    '<',
    '  {"name": "agent_delegate", "arguments": {}}',
    '```json\n{"name"',
    '```',
    '``',
    '```\n',
    '[TOOL_CALLS] [{"name"',
    '[TOOL',
    '<|python_tag|>{"name"',
    '```json\n{"name": "agent_list", "arguments": {}}\n```',
  ])('%j may be a call', (text) => {
    expect(mayOpenWithTextCall(text)).toBe(true);
  });

  test.each([
    'Hello there',
    '',
    '   ',
    '[1] The first footnote',
    '<br> a line',
    '```python\nprint("hi")',
    '```\nplain words in a fence',
    '```json\n{"colour": "red"}\n```',
  ])('%j is not a call', (text) => {
    expect(mayOpenWithTextCall(text)).toBe(false);
  });
});

describe('heldFrom', () => {
  test('prose is shown whole', () => {
    const text = 'The rain stopped. She smiled at [1] and at `x`.';
    expect(heldFrom(text)).toBe(text.length);
  });

  test('a Hermes call after prose is held from its marker', () => {
    const text = 'Let me ask the critic. <tool_call>{"name"';
    expect(heldFrom(text)).toBe(text.indexOf('<tool_call'));
  });

  test.each(['<function=agent_list>{}</function>', '<|tool_call|>[{"name"', '<minimax:tool_call>', 'to=functions.agent_list'])(
    'every opening the text-call parser knows is held from its start: %j',
    (call) => {
      const text = `One moment. ${call}`;
      expect(heldFrom(text)).toBe('One moment. '.length);
    },
  );

  test('the beginning of a marker at the end is held until more arrives', () => {
    expect(heldFrom('She said <to')).toBe('She said '.length);
    expect(heldFrom('Look: ``')).toBe('Look: '.length);
  });

  test('a brace later in prose is no bare JSON call', () => {
    const text = 'A set {a, b} of things.';
    expect(heldFrom(text)).toBe(text.length);
  });

  test('a closed code fence that holds no call is shown again', () => {
    const open = 'Code:\n```js\nconst a = 1;';
    expect(heldFrom(open)).toBe(open.length);
    const jsonOpen = 'Data:\n```json\n{"colour": "re';
    expect(heldFrom(jsonOpen)).toBe('Data:\n'.length);
    const jsonClosed = `${jsonOpen}d"}\n\`\`\`\nDone.`;
    expect(heldFrom(jsonClosed)).toBe(jsonClosed.length);
  });
});
