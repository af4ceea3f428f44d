import { describe, expect, test } from 'vitest';
import { googleCallBody, googleStreamFormat, readGoogleReply } from '../../../../src/hosts/sillytavern/google-source';
import { createPageResponseWriter, type PageResponsePart } from '../../../../src/hosts/page-response-writer';

/** SillyTavern 1.18 wraps a non-streamed Gemini answer: non-thought text in `choices`, Gemini's parts in `responseContent`. */
function wrapped(parts: { text?: string; thought?: boolean; functionCall?: unknown }[]) {
  const text = parts.filter((part) => !part.thought && typeof part.text === 'string').map((part) => part.text).join('\n\n');
  return JSON.stringify({ choices: [{ message: { content: text } }], responseContent: { role: 'model', parts } });
}

describe("SillyTavern's Google reply", () => {
  test('functionCall parts become tool calls, thought parts reasoning, the rest the text', () => {
    const actual = readGoogleReply(
      wrapped([
        { text: 'Weighing who to ask.', thought: true },
        { text: 'Asking the critic.' },
        { functionCall: { name: 'agent_delegate', args: { agentId: 'scene-critic' } } },
        { functionCall: { name: 'agent_await' } },
      ]),
    );
    if (!actual.ok) throw new Error(JSON.stringify(actual.failure));
    const calls = actual.result.message.tool_calls ?? [];
    expect(calls.map((call) => call.type === 'function' && [call.function.name, call.function.arguments])).toEqual([
      ['agent_delegate', '{"agentId":"scene-critic"}'],
      ['agent_await', '{}'],
    ]);
    expect(new Set(calls.map((call) => call.id)).size).toBe(2);
    expect(actual.result.message.content).toBe('Asking the critic.');
    expect(actual.result.reasoning).toBe('Weighing who to ask.');
    expect(actual.result.finishReason).toBe('tool_calls');
  });

  test('text parts are the reply, joined as SillyTavern joins them', () => {
    const actual = readGoogleReply(wrapped([{ text: 'The rain stopped.' }, { text: 'Then the wind.' }]));
    expect(actual.ok && actual.result.message).toEqual({ role: 'assistant', content: 'The rain stopped.\n\nThen the wind.' });
  });

  test('an error SillyTavern sends with status 200 is read in its words', () => {
    const actual = readGoogleReply(JSON.stringify({ error: { message: 'Google AI Studio API returned no candidate\nPrompt was blocked due to : SAFETY' } }));
    expect(actual.ok === false && actual.failure).toMatchObject({ kind: 'protocol', detail: expect.stringContaining('Prompt was blocked due to : SAFETY') });
  });

  test('a functionCall without a name is refused with the place named', () => {
    const actual = readGoogleReply(wrapped([{ functionCall: { args: {} } }]));
    expect(actual.ok === false && actual.failure).toMatchObject({ kind: 'protocol', detail: expect.stringContaining('responseContent') });
  });
});

describe("a call through SillyTavern's Google sources", () => {
  test('goes non-streamed with tools and tool_choice as they are', () => {
    const tools = [{ type: 'function', function: { name: 'agent_list', parameters: { type: 'object', properties: {} } } }];
    const actual = googleCallBody({ model: 'gemini-2.5-flash', messages: [], tools, tool_choice: 'auto', stream: true, stream_options: { include_usage: true } });
    expect(actual).toEqual({ model: 'gemini-2.5-flash', messages: [], tools, tool_choice: 'auto', stream: false });
  });
});

describe('a streamed answer to a Google-source page', () => {
  test("is Gemini's candidates: text parts for the reply, thought parts for progress", () => {
    const parts: PageResponsePart[] = [];
    const writer = createPageResponseWriter({ stream: true, send: (part) => parts.push(part), streamFormat: googleStreamFormat, settleMs: 60_000 });
    writer.progress('critic · Critique — done');
    writer.replyDelta('The rain ');
    writer.reply('The rain stopped.', { streamed: false });
    type Part = { text: string; thought?: boolean };
    const events = parts
      .flatMap((part) => (part.kind === 'chunk' ? part.text.split('\n\n') : []))
      .filter((event) => event.startsWith('data: '))
      .map((event) => JSON.parse(event.slice(6)) as { candidates: { content: { parts: Part[] }; finishReason?: string }[] });
    const allParts = events.flatMap((event) => event.candidates[0]?.content.parts ?? []);
    expect(allParts.filter((part) => !part.thought).map((part) => part.text).join('')).toBe('The rain The rain stopped.');
    expect(allParts.filter((part) => part.thought).map((part) => part.text).join('')).toBe('critic · Critique — done\n');
    expect(events.at(-1)?.candidates[0]?.finishReason).toBe('STOP');
  });
});
