import { describe, expect, test } from 'vitest';
import { claudeCallBody, claudeStreamFormat, readClaudeReply } from '../../../../src/hosts/sillytavern/claude-source';
import { createPageResponseWriter, type PageResponsePart } from '../../../../src/hosts/page-response-writer';

/** SillyTavern 1.18 wraps a non-streamed Claude answer: the first text block in `choices`, Claude's blocks in `content`. */
function wrapped(content: unknown[]) {
  const first = content.find((block) => (block as { type: string }).type === 'text') as { text?: string } | undefined;
  return JSON.stringify({ choices: [{ message: { content: first?.text ?? '' } }], content });
}

describe("SillyTavern's Claude reply", () => {
  test('text, thinking and tool_use blocks become text, reasoning and tool calls', () => {
    const actual = readClaudeReply(
      wrapped([
        { type: 'thinking', thinking: 'The critic should look first.', signature: 'sig' },
        { type: 'text', text: 'Asking the critic.' },
        { type: 'tool_use', id: 'toolu_01', name: 'agent_delegate', input: { agentId: 'scene-critic', task: { title: 'Critique' } } },
        { type: 'tool_use', id: 'toolu_02', name: 'agent_await', input: {} },
      ]),
    );
    if (!actual.ok) throw new Error(JSON.stringify(actual.failure));
    expect(actual.result.message).toEqual({
      role: 'assistant',
      content: 'Asking the critic.',
      tool_calls: [
        { id: 'toolu_01', type: 'function', function: { name: 'agent_delegate', arguments: '{"agentId":"scene-critic","task":{"title":"Critique"}}' } },
        { id: 'toolu_02', type: 'function', function: { name: 'agent_await', arguments: '{}' } },
      ],
    });
    expect(actual.result.reasoning).toBe('The critic should look first.');
    expect(actual.result.finishReason).toBe('tool_calls');
  });

  test('a text-only answer is the reply, with every text block and none of the blocks Retinue does not read', () => {
    const actual = readClaudeReply(wrapped([{ type: 'text', text: 'The rain ' }, { type: 'redacted_thinking', data: 'x' }, { type: 'text', text: 'stopped.' }]));
    expect(actual).toEqual({ ok: true, result: { message: { role: 'assistant', content: 'The rain stopped.' }, finishReason: 'stop', usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 } } });
  });

  test('an OpenAI-shaped answer (no Claude blocks) is refused with what was expected', () => {
    const actual = readClaudeReply(JSON.stringify({ choices: [{ message: { content: 'hi' }, finish_reason: 'stop' }] }));
    expect(actual.ok).toBe(false);
    if (!actual.ok) expect(actual.failure).toMatchObject({ kind: 'protocol', detail: expect.stringContaining("check that the page's source is Claude") });
  });

  test("the server's own error body is read in its words; a body cut short is a cut", () => {
    const error = readClaudeReply(JSON.stringify({ error: { message: 'overloaded' } }));
    expect(error.ok === false && error.failure).toMatchObject({ kind: 'protocol', detail: 'SillyTavern answered with an error: overloaded' });
    const cut = readClaudeReply('{"choices":[{"mess');
    expect(cut.ok === false && cut.failure.kind).toBe('cut');
  });

  test('a tool_use block without an id is refused rather than read as a call nobody can answer', () => {
    const actual = readClaudeReply(wrapped([{ type: 'tool_use', id: '', name: 'agent_list', input: {} }]));
    expect(actual.ok && actual.result.message.tool_calls).toBeFalsy();
  });
});

describe("a call through SillyTavern's Claude source", () => {
  const tools = [{ type: 'function', function: { name: 'agent_list', description: 'List agents.', parameters: { type: 'object', properties: {} } } }];

  test('goes non-streamed, with a string tool_choice, no prefill and no thinking', () => {
    const actual = claudeCallBody({
      model: 'claude-sonnet-4-5',
      messages: [{ role: 'user', content: 'Hello' }],
      tools,
      tool_choice: 'required',
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(actual).toEqual({
      model: 'claude-sonnet-4-5',
      messages: [{ role: 'user', content: 'Hello' }],
      tools,
      tool_choice: 'any',
      stream: false,
      assistant_prefill: '',
      reasoning_effort: 'auto',
    });
  });

  test('tool_choice defaults to auto with tools and is left out without them', () => {
    expect(claudeCallBody({ messages: [], tools }).tool_choice).toBe('auto');
    expect(claudeCallBody({ messages: [], tools, tool_choice: 'none' }).tool_choice).toBe('none');
    expect('tool_choice' in claudeCallBody({ messages: [], tool_choice: 'auto' })).toBe(false);
  });

  test('tool call arguments the server could not parse go as an empty object; good ones stay', () => {
    const messages = [
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'agent_list', arguments: '{"x":' } },
          { id: 'b', type: 'function', function: { name: 'agent_await', arguments: '{"mode":"allCompleted"}' } },
        ],
      },
    ];
    const actual = claudeCallBody({ messages }).messages as { tool_calls: { function: { arguments: string } }[] }[];
    expect(actual[0]?.tool_calls.map((call) => call.function.arguments)).toEqual(['{}', '{"mode":"allCompleted"}']);
  });
});

describe('a streamed answer to a Claude-source page', () => {
  test("is Claude's events: delta.text for the reply, delta.thinking for progress", () => {
    const parts: PageResponsePart[] = [];
    const writer = createPageResponseWriter({ stream: true, send: (part) => parts.push(part), streamFormat: claudeStreamFormat, settleMs: 60_000 });
    writer.progress('critic · Critique — started');
    writer.reply('The rain stopped.');
    const events = parts
      .flatMap((part) => (part.kind === 'chunk' ? part.text.split('\n\n') : []))
      .flatMap((event) => event.split('\n').filter((line) => line.startsWith('data: ')).map((line) => JSON.parse(line.slice(6)) as { delta?: { text?: string; thinking?: string } }));
    expect(events.map((event) => event.delta?.text ?? '').join('')).toBe('The rain stopped.');
    expect(events.map((event) => event.delta?.thinking ?? '').join('')).toBe('critic · Critique — started\n');
    expect(parts[0]).toEqual({ kind: 'start', status: 200, contentType: 'text/event-stream; charset=utf-8' });
  });
});
