import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionChunk,
  ChatCompletionMessageFunctionToolCall,
} from 'openai/resources/chat/completions';
import type { ModelCallUsage } from './model-client';

interface ToolCallParts {
  id: string;
  name: string;
  arguments: string;
}

/** What one streamed turn came to. */
export interface AssembledTurn {
  message: ChatCompletionAssistantMessageParam;
  finishReason: string | null;
  usage: ModelCallUsage;
  /** Reasoning text (`reasoning_content` / `reasoning` deltas), when the provider streams it. */
  reasoning: string;
}

/**
 * Collects `chat.completion.chunk`s into one assistant message: text deltas joined, tool-call deltas
 * joined per index (id and name from the first delta, arguments appended), usage from the usage chunk.
 */
export class StreamAssembler {
  private text = '';
  private reasoning = '';
  private readonly toolCalls: ToolCallParts[] = [];
  /** Position in `toolCalls` of the call each provider index is filling now. */
  private readonly slotByIndex = new Map<number, number>();
  private finishReason: string | null = null;
  /** False until a chunk carries a finish reason: a stream that ends without one was cut short. */
  finishReasonSeen = false;
  private usage: ModelCallUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

  /** Takes one chunk; returns the text it added (empty when none). */
  add(chunk: ChatCompletionChunk): string {
    if (chunk.usage) {
      this.usage = {
        promptTokens: chunk.usage.prompt_tokens ?? 0,
        completionTokens: chunk.usage.completion_tokens ?? 0,
        totalTokens: chunk.usage.total_tokens ?? (chunk.usage.prompt_tokens ?? 0) + (chunk.usage.completion_tokens ?? 0),
      };
    }
    const choice = chunk.choices[0];
    if (!choice) return '';
    if (choice.finish_reason) {
      this.finishReason = choice.finish_reason;
      this.finishReasonSeen = true;
    }
    const delta = choice.delta as typeof choice.delta & { reasoning_content?: string | null; reasoning?: string | null };
    const reasoningPiece = delta.reasoning_content ?? delta.reasoning;
    if (typeof reasoningPiece === 'string') this.reasoning += reasoningPiece;
    for (const toolDelta of delta.tool_calls ?? []) this.addToolDelta(toolDelta);
    const textPiece = typeof delta.content === 'string' ? delta.content : '';
    this.text += textPiece;
    return textPiece;
  }

  private addToolDelta(toolDelta: NonNullable<ChatCompletionChunk.Choice.Delta['tool_calls']>[number]): void {
    const index = toolDelta.index ?? 0;
    let slot = this.slotByIndex.get(index);
    const current = slot === undefined ? undefined : this.toolCalls[slot];
    // Some servers reuse index 0 for every call but give each a new id: a new id starts a new call.
    const startsNewCall = current === undefined || (toolDelta.id !== undefined && toolDelta.id !== '' && current.id !== '' && toolDelta.id !== current.id);
    if (startsNewCall) {
      slot = this.toolCalls.push({ id: toolDelta.id ?? '', name: '', arguments: '' }) - 1;
      this.slotByIndex.set(index, slot);
    }
    const parts = this.toolCalls[slot as number] as ToolCallParts;
    if (toolDelta.id && !parts.id) parts.id = toolDelta.id;
    if (toolDelta.function?.name) parts.name += toolDelta.function.name;
    if (toolDelta.function?.arguments) parts.arguments += toolDelta.function.arguments;
  }

  /** The assembled turn. Tool calls without an id get a stable one so tool results can refer to them. */
  finish(): AssembledTurn {
    const toolCalls: ChatCompletionMessageFunctionToolCall[] = this.toolCalls.map((parts, position) => ({
      id: parts.id || `call_${position}_${Math.random().toString(36).slice(2, 10)}`,
      type: 'function',
      function: { name: parts.name, arguments: parts.arguments },
    }));
    const message: ChatCompletionAssistantMessageParam =
      toolCalls.length > 0
        ? { role: 'assistant', content: this.text === '' ? null : this.text, tool_calls: toolCalls }
        : { role: 'assistant', content: this.text };
    return { message, finishReason: this.finishReason, usage: this.usage, reasoning: this.reasoning };
  }
}
