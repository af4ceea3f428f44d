import type { IncomingMessage } from 'node:http';
import type { ChatCompletionCreateParams, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ScriptedRequest } from './scripted-model-types';

/**
 * The most requests that were being answered at the same moment, from recorded receive/answer times.
 * Requests still pending count as open until now.
 */
export function peakOverlap(requests: readonly ScriptedRequest[]): number {
  const edges = requests.flatMap((request) => [
    { time: request.receivedAt, change: 1 },
    { time: request.answeredAt ?? Date.now(), change: -1 },
  ]);
  // At equal times an end comes before a start: back-to-back requests do not overlap.
  edges.sort((left, right) => left.time - right.time || left.change - right.change);
  let open = 0;
  let peak = 0;
  for (const edge of edges) {
    open += edge.change;
    peak = Math.max(peak, open);
  }
  return peak;
}

/** The record of one request, with the views scripts use. */
export function recordRequest(index: number, body: ChatCompletionCreateParams, request: IncomingMessage): ScriptedRequest {
  const messages = body.messages;
  const lastMessage = messages.at(-1);
  return {
    index,
    body,
    headers: request.headers,
    receivedAt: Date.now(),
    outcome: 'pending',
    contentWrittenAt: [],
    stream: body.stream === true,
    systemText: messages
      .filter((message) => message.role === 'system' || message.role === 'developer')
      .map(messageText)
      .join('\n\n'),
    lastMessage,
    lastMessageText: lastMessage ? messageText(lastMessage) : '',
    allText: messages.map(messageText).join('\n\n'),
    toolNames: (body.tools ?? []).flatMap((tool) => (tool.type === 'function' ? [tool.function.name] : [])),
    toolResultCount: messages.filter((message) => message.role === 'tool').length,
  };
}

/** The text of a message: string content, text parts, and the arguments of its tool calls. */
export function messageText(message: ChatCompletionMessageParam): string {
  const content = message.content;
  let text = '';
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content)) {
    text = content.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : '')).join('');
  }
  if (message.role === 'assistant' && message.tool_calls) {
    const calls = message.tool_calls.map((call) => (call.type === 'function' ? `${call.function.name} ${call.function.arguments}` : ''));
    text = [text, ...calls].filter(Boolean).join('\n');
  }
  return text;
}
