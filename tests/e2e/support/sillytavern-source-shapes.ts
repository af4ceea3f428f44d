/**
 * The fixture SillyTavern backend's Claude and Google sources, written from the protocol facts
 * (TOOLCHAIN.md, and SillyTavern 1.18's endpoint as read for issue 11): the OpenAI-shaped scripted
 * model server stands in for Anthropic and Gemini, and this module gives its answers the shapes the
 * page (and Retinue) get from SillyTavern for those sources:
 * - non-streamed Claude: `{choices: [{message: {content: <first text block>}}], content: [<Claude blocks>]}`,
 *   tool calls as `tool_use` blocks, reasoning as a `thinking` block;
 * - non-streamed Google: `{choices: [{message: {content}}], responseContent: {role: 'model', parts}}`,
 *   tool calls as `functionCall` parts, reasoning as a `thought` part;
 * - streamed: Claude's events (`delta.text`, `delta.thinking`) or Gemini's `candidates[0].content.parts`.
 * What SillyTavern's server refuses is refused the same way: for Claude, a `tool_choice` that is not
 * one of Claude's names, or tool-call arguments it cannot parse, fail the request (500, `{error: true}`).
 */

/** Sources this module answers for. */
export const SOURCE_SHAPES = ['claude', 'makersuite', 'vertexai'] as const;
export type SourceShape = (typeof SOURCE_SHAPES)[number];

export function isSourceShape(source: unknown): source is SourceShape {
  return typeof source === 'string' && (SOURCE_SHAPES as readonly string[]).includes(source);
}

/** Why SillyTavern's server would refuse this body for the source, or undefined when it takes it. */
export function sourceRefusal(source: SourceShape, body: Record<string, unknown>): string | undefined {
  if (source !== 'claude') return undefined;
  const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
  if (hasTools && !['auto', 'any', 'none'].includes(body.tool_choice as string)) {
    return `tool_choice ${JSON.stringify(body.tool_choice)} becomes {type: …}, which Claude refuses`;
  }
  for (const message of Array.isArray(body.messages) ? (body.messages as { tool_calls?: { function?: { arguments?: unknown } }[] }[]) : []) {
    for (const call of message.tool_calls ?? []) {
      try {
        JSON.parse(String(call.function?.arguments));
      } catch {
        return 'tool call arguments that are not JSON';
      }
    }
  }
  return undefined;
}

/** The OpenAI body the scripted model server gets: always non-streamed (the answer is reshaped whole); Claude's `any` is `required`. */
export function providerBody(source: SourceShape, forwarded: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...forwarded, stream: false };
  delete body.stream_options;
  if (source === 'claude' && body.tool_choice === 'any') body.tool_choice = 'required';
  return body;
}

interface OpenAiAnswer {
  text: string;
  reasoning: string;
  toolCalls: { id: string; name: string; arguments: string }[];
}

function readOpenAiAnswer(completion: unknown): OpenAiAnswer {
  const message = (completion as { choices?: { message?: Record<string, unknown> }[] }).choices?.[0]?.message ?? {};
  const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as { id: string; function: { name: string; arguments: string } }[]) : [];
  return {
    text: typeof message.content === 'string' ? message.content : '',
    reasoning: typeof message.reasoning_content === 'string' ? message.reasoning_content : '',
    toolCalls: calls.map((call) => ({ id: call.id, name: call.function.name, arguments: call.function.arguments })),
  };
}

const parseArguments = (text: string): unknown => (text.trim() === '' ? {} : (JSON.parse(text) as unknown));

/** The whole (non-streamed) reply SillyTavern sends for the source. */
export function wholeReply(source: SourceShape, completion: unknown): Record<string, unknown> {
  const answer = readOpenAiAnswer(completion);
  if (source === 'claude') {
    const content = [
      ...(answer.reasoning ? [{ type: 'thinking', thinking: answer.reasoning, signature: 'fixture-signature' }] : []),
      ...(answer.text ? [{ type: 'text', text: answer.text }] : []),
      ...answer.toolCalls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: parseArguments(call.arguments) })),
    ];
    const firstText = content.find((block) => block.type === 'text') as { text?: string } | undefined;
    return { choices: [{ message: { content: firstText?.text ?? '' } }], content };
  }
  const parts = [
    ...(answer.reasoning ? [{ text: answer.reasoning, thought: true }] : []),
    ...(answer.text ? [{ text: answer.text }] : []),
    ...answer.toolCalls.map((call) => ({ functionCall: { name: call.name, args: parseArguments(call.arguments) } })),
  ];
  return { choices: [{ message: { content: answer.text } }], responseContent: { role: 'model', parts } };
}

/** The streamed reply's events for the source (the whole answer in one text event, as a short stream). */
export function streamedReply(source: SourceShape, completion: unknown): string {
  const answer = readOpenAiAnswer(completion);
  const event = (value: unknown, name?: string) => `${name ? `event: ${name}\n` : ''}data: ${JSON.stringify(value)}\n\n`;
  if (source === 'claude') {
    return [
      event({ type: 'message_start', message: { role: 'assistant', content: [] } }, 'message_start'),
      ...(answer.reasoning ? [event({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: answer.reasoning } }, 'content_block_delta')] : []),
      event({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: answer.text } }, 'content_block_delta'),
      event({ type: 'message_stop' }, 'message_stop'),
    ].join('');
  }
  const candidate = (part: Record<string, unknown>, finishReason?: string) => event({ candidates: [{ content: { role: 'model', parts: [part] }, index: 0, ...(finishReason ? { finishReason } : {}) }] });
  return [...(answer.reasoning ? [candidate({ text: answer.reasoning, thought: true })] : []), candidate({ text: answer.text }, 'STOP')].join('');
}
