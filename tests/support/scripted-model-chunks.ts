import type { ScriptedRequest, ScriptedTurn, ScriptedUsage } from './scripted-model-types';

/** What the server needs to know to shape one completion. */
export interface CompletionShape {
  completionId: string;
  model: string;
  created: number;
  /** Tool call ids, one per `turn.toolCalls` entry. */
  toolCallIds: string[];
  piecesPerString: number;
}

/** Splits text into `pieces` non-empty parts (fewer when the text is shorter). */
export function splitIntoPieces(text: string, pieces: number): string[] {
  if (text.length === 0) return [];
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, pieces)));
  const parts: string[] = [];
  for (let start = 0; start < text.length; start += size) parts.push(text.slice(start, start + size));
  return parts;
}

/** The arguments string a scripted tool call sends. */
export function argumentsText(argumentsValue: Record<string, unknown> | string): string {
  return typeof argumentsValue === 'string' ? argumentsValue : JSON.stringify(argumentsValue);
}

/** Rough token count (4 characters a token) so usage is never zero by accident. */
function roughTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** The usage a turn reports: its own, or one estimated from the request and the reply. */
export function usageFor(request: ScriptedRequest, turn: ScriptedTurn): ScriptedUsage {
  if (turn.usage) return turn.usage;
  const replyText =
    (turn.content ?? '') + (turn.reasoning ?? '') + (turn.toolCalls ?? []).map((call) => call.name + argumentsText(call.arguments)).join('');
  const promptTokens = roughTokens(request.allText);
  const completionTokens = roughTokens(replyText);
  return { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
}

function finishReasonOf(turn: ScriptedTurn): string | null {
  if (turn.finishReason !== undefined) return turn.finishReason;
  return (turn.toolCalls?.length ?? 0) > 0 ? 'tool_calls' : 'stop';
}

/** The non-streamed `chat.completion` JSON body. */
export function completionBody(request: ScriptedRequest, turn: ScriptedTurn, shape: CompletionShape): Record<string, unknown> {
  const toolCalls = (turn.toolCalls ?? []).map((call, index) => ({
    id: shape.toolCallIds[index],
    type: 'function',
    function: { name: call.name, arguments: argumentsText(call.arguments) },
  }));
  return {
    id: shape.completionId,
    object: 'chat.completion',
    created: shape.created,
    model: shape.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: turn.content ?? null,
          refusal: null,
          ...(turn.reasoning !== undefined ? { reasoning_content: turn.reasoning } : {}),
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: finishReasonOf(turn),
      },
    ],
    ...(turn.omitUsage ? {} : { usage: usageFor(request, turn) }),
  };
}

/**
 * The `chat.completion.chunk` objects of a streamed turn, in order: role, reasoning pieces, content
 * pieces, tool-call deltas (id and name first, then the arguments in pieces, one index per call), the
 * finish reason, and the usage chunk when the request asked for it.
 */
export function completionChunks(request: ScriptedRequest, turn: ScriptedTurn, shape: CompletionShape): Record<string, unknown>[] {
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): Record<string, unknown> => ({
    id: shape.completionId,
    object: 'chat.completion.chunk',
    created: shape.created,
    model: shape.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
  const chunks = [chunk({ role: 'assistant', content: '' })];
  const textPieces = turn.slowly?.pieces ?? shape.piecesPerString;
  for (const piece of splitIntoPieces(turn.reasoning ?? '', textPieces)) chunks.push(chunk({ reasoning_content: piece }));
  for (const piece of splitIntoPieces(turn.content ?? '', textPieces)) chunks.push(chunk({ content: piece }));
  (turn.toolCalls ?? []).forEach((call, index) => {
    chunks.push(
      chunk({ tool_calls: [{ index, id: shape.toolCallIds[index], type: 'function', function: { name: call.name, arguments: '' } }] }),
    );
    for (const piece of splitIntoPieces(argumentsText(call.arguments), shape.piecesPerString)) {
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  chunks.push(chunk({}, finishReasonOf(turn)));
  const streamOptions = (request.body as { stream_options?: { include_usage?: boolean } | null }).stream_options;
  if (streamOptions?.include_usage && !turn.omitUsage) {
    chunks.push({
      id: shape.completionId,
      object: 'chat.completion.chunk',
      created: shape.created,
      model: shape.model,
      choices: [],
      usage: usageFor(request, turn),
    });
  }
  return chunks;
}

/** Whether a chunk carries reasoning or content text (what a slow model takes time to write). */
export function carriesText(chunk: Record<string, unknown>): boolean {
  const choices = chunk.choices as { delta?: { content?: unknown; reasoning_content?: unknown } }[] | undefined;
  const delta = choices?.[0]?.delta;
  return (typeof delta?.content === 'string' && delta.content !== '') || typeof delta?.reasoning_content === 'string';
}

/** Whether a chunk carries content text. */
export function carriesContent(chunk: Record<string, unknown>): boolean {
  const choices = chunk.choices as { delta?: { content?: unknown } }[] | undefined;
  const content = choices?.[0]?.delta?.content;
  return typeof content === 'string' && content !== '';
}

/** OpenAI's error `type` and `code` for a status, so SDK error classes map as with the real API. */
export function errorKindFor(status: number): { type: string; code: string } {
  if (status === 401) return { type: 'invalid_request_error', code: 'invalid_api_key' };
  if (status === 429) return { type: 'requests', code: 'rate_limit_exceeded' };
  if (status >= 500) return { type: 'server_error', code: 'server_error' };
  return { type: 'invalid_request_error', code: 'invalid_request' };
}
