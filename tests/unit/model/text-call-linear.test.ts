import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { MAX_PARSED_CHARS, parseTextToolCalls } from '../../../src/model/text-tool-calls';

/**
 * The text-call parser's work grows linearly with the answer, whatever its shape: it counts the
 * characters its readers look at (`steps`), and no shape may cost more than a fixed number of
 * steps per character. A regex that backtracks, a rescan per call or a copy per call would.
 */
const STEPS_PER_CHARACTER = 48;
const toolNames = ['agent_list', 'agent_delegate'];

function stepsPerCharacter(text: string): number {
  return parseTextToolCalls(text, { toolNames }).steps / Math.max(text.length, 1);
}

/** The openings of every format the parser reads, and the pieces its readers look for inside them. */
const OPENINGS = [
  '<tool_call>', '</tool_call>', '<function=agent_list>', '</function>', '<parameter=k>', '</parameter>',
  '<arg_key>', '</arg_key>', '<arg_value>', '</arg_value>', '<minimax:tool_call>', '<invoke name="a">', '<parameter name="k">',
  '<|tool_calls_section_begin|>', '<|tool_call_begin|>', 'functions.a:0', '<|tool_call_argument_begin|>', '<|tool_call_end|>',
  '<｜tool▁calls▁begin｜>', '<｜tool▁call▁begin｜>', '<｜tool▁sep｜>', '<｜tool_call_end｜>', '<|START_ACTION|>', '<TOOLCALL>',
  '[TOOL_REQUEST]', '<|tool_call|>', '[TOOL_CALLS]', 'agent_list[ARGS]', '[CALL_ID]', '<|python_tag|>', 'agent_list.call(',
  'functools', '>>>', 'agent_list\n', '```', '```json\n', 'to=functions.agent_list', '<|channel|>commentary', '<|constrain|>json',
  '<|message|>', '<|start|>assistant', '<think>', '</think>', '<|START_THINKING|>', '<|channel|>analysis<|message|>',
  '{', '}', '[', ']', '"', '\\', ':', ';', ',', ' ', '\n', '\t', 'x', '{"name": "agent_list", "arguments": {', '"name"',
];

describe('the text-call parser reads in linear time', () => {
  test.each([
    ['the GLM payload that took hours', '<tool_call>agent_list' + '<arg_key>k</arg_key><arg_value>v</arg_value>'.repeat(4000) + '<arg_key></tool_call>'],
    ['100 KB of spaces', ' '.repeat(100_000) + 'x'],
    ['100 KB of newlines', '\n'.repeat(100_000) + 'x'],
    ['100 KB of newlines and braces', '\n{'.repeat(50_000)],
    ['unbalanced strings and braces', '{"'.repeat(50_000)],
    ['harmony headers without a message', ' to=functions.agent_list'.repeat(8_000)],
    ['an unclosed think', '<think>' + 'x'.repeat(100_000)],
    // A fast-check seed found it: each recipient searched to the end for a '<' (quadratic).
    ['harmony recipients with no "<" after them', ('to=functions.agent_listagent_list\n'.repeat(40) + '"'.repeat(40)).repeat(120) + '<|channel|>analysis<|message|>'],
    // A fast-check seed found it (299584600): each Granite marker's JSON piece ran to the end, and each was parsed.
    ['Granite markers opening brackets that close only at the end', '<|tool_call|>{'.repeat(9_000) + ']<tool_call>'.repeat(9_000)],
    ['the same, nested in repeats', ('"<tool_call>'.repeat(23) + ']<tool_call>'.repeat(23) + '<|tool_call|>{'.repeat(23)).repeat(30)],
  ])('%s', (_name, text) => {
    expect(stepsPerCharacter(text)).toBeLessThan(STEPS_PER_CHARACTER);
  });

  test.each([
    ['Hermes', (index: number) => `<tool_call>{"name":"agent_list","arguments":{"n":${index}}}</tool_call>\n`],
    ['Mistral named', (index: number) => `[TOOL_CALLS]agent_list[ARGS]{"n":${index}}`],
    ['Granite', (index: number) => `<|tool_call|>[{"name":"agent_list","arguments":{"n":${index}}}]`],
    ['harmony', (index: number) => ` to=functions.agent_list<|message|>{"n":${index}}<|call|>`],
    ['Functionary', (index: number) => `>>>agent_list\n{"n":${index}}`],
    ['Llama python tag', (index: number) => `<|python_tag|>{"name":"agent_list","parameters":{"n":${index}}}`],
    ['Kimi', (index: number) => `<|tool_calls_section_begin|><|tool_call_begin|>functions.agent_list:${index}<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>`],
  ])('10,000 %s calls: read in linear work, or plain text past the cap', (_name, call) => {
    const text = Array.from({ length: 10_000 }, (_, index) => call(index)).join('');
    const parsed = parseTextToolCalls(text, { toolNames });
    expect(parsed.steps / text.length).toBeLessThan(STEPS_PER_CHARACTER);
    expect(parsed.calls.length).toBe(text.length > MAX_PARSED_CHARS ? 0 : 10_000);
  });

  test('4,000 Hermes calls under the cap are all read', () => {
    const text = '<tool_call>{"name":"agent_list","arguments":{}}</tool_call>\n'.repeat(4_000);
    const parsed = parseTextToolCalls(text, { toolNames });
    expect(parsed.calls).toHaveLength(4_000);
    expect(parsed.steps / text.length).toBeLessThan(STEPS_PER_CHARACTER);
  });

  test('adversarial shapes: nested repeats of every opening, unclosed, cost a bounded number of steps per character', () => {
    const piece = fc.constantFrom(...OPENINGS);
    const unit = fc.array(piece, { minLength: 1, maxLength: 6 }).map((pieces) => pieces.join(''));
    const shape = fc.record({
      head: fc.array(piece, { maxLength: 3 }).map((pieces) => pieces.join('')),
      outer: fc.array(unit, { minLength: 1, maxLength: 3 }),
      inner: fc.integer({ min: 2, max: 40 }),
      tail: fc.array(piece, { maxLength: 3 }).map((pieces) => pieces.join('')),
    });
    fc.assert(
      fc.property(shape, ({ head, outer, inner, tail }) => {
        const nested = outer.map((part) => part.repeat(inner)).join('');
        const text = head + nested.repeat(Math.ceil(20_000 / Math.max(nested.length, 1))) + tail;
        return stepsPerCharacter(text) < STEPS_PER_CHARACTER;
      }),
      { numRuns: 150 },
    );
  });

  test('an answer past the cap is plain text: no call is read from it', () => {
    const text = 'x'.repeat(MAX_PARSED_CHARS) + '\n<tool_call>{"name":"agent_list","arguments":{}}</tool_call>';
    expect(parseTextToolCalls(text, { toolNames }).calls).toEqual([]);
  });
});
