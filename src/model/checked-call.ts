/**
 * The layer between a loop and the endpoint that makes any OpenAI-compatible endpoint usable: it
 * picks the tool protocol (native `tools`, or tools rendered into the prompt when the endpoint
 * refuses them), reads tool calls written as text into `tool_calls`, keeps reasoning out of the
 * answer, asks once again for a malformed text call or an empty answer, and throws the coded
 * errors the fail-open decision reads (`tools-refused`, `empty-answer`).
 */
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { ModelBehaviorError, ProviderError } from '../errors';
import type { ModelCallRequest, ModelCallResult, ModelTarget } from './model-client';
import { contentText, encodeForPromptedTools } from './prompted-tools';
import { parseTextToolCalls, type TextToolCall } from './text-tool-calls';
import { sumCallUsage } from './token-estimate';
import { endpointKeyOf, type ToolProtocolMemory } from './tool-protocol-memory';

/** Said to a model whose answer was empty (or all reasoning, stopped by `max_tokens`). */
export const ANSWER_NOW_NUDGE = 'Answer now, briefly.';

export interface CheckedCallContext {
  target: ModelTarget;
  memory: ToolProtocolMemory;
  /** One call with the client's retries (a cut answer included). */
  send: (request: ModelCallRequest) => Promise<ModelCallResult>;
}

type Protocol = 'native' | 'prompted';

/**
 * Calls the model and checks the answer. In prompted mode the native history is written as text
 * and the tools go into the system text; in every mode text calls become `tool_calls`. An endpoint
 * in the prompted protocol gets it on every call, one that offers no tools (a wrap-up) included.
 */
export async function checkedCall(context: CheckedCallContext, request: ModelCallRequest): Promise<ModelCallResult> {
  const tools = request.tools ?? [];
  const setting = context.target.toolProtocol ?? 'auto';
  const endpointKey = endpointKeyOf(context.target);
  let protocol: Protocol = 'native';
  if (setting === 'prompted' || (setting === 'auto' && (await context.memory.isPrompted(endpointKey)))) protocol = 'prompted';
  try {
    return await answerIn(context, request, protocol);
  } catch (error) {
    const refused = error instanceof ProviderError && error.code === 'tools-refused';
    if (!refused || protocol === 'prompted' || setting === 'native' || tools.length === 0) throw error;
    // The endpoint refuses `tools`: remember it for later runs and redo this call at once, prompted.
    await context.memory.rememberPrompted(endpointKey);
    return answerIn(context, request, 'prompted');
  }
}

/** Sums the usage of the sends one checked call took. */
function withUsageOf(result: ModelCallResult, earlier: ModelCallResult[]): ModelCallResult {
  return { ...result, usage: sumCallUsage([result.usage, ...earlier.map((previous) => previous.usage)]) };
}

async function answerIn(context: CheckedCallContext, request: ModelCallRequest, protocol: Protocol): Promise<ModelCallResult> {
  const tools = request.tools ?? [];
  const toolNames = tools.flatMap((tool) => (tool.type === 'function' ? [tool.function.name] : []));
  const baseMessages = protocol === 'prompted' ? encodeForPromptedTools(request.messages, tools) : request.messages;
  const send = (extra: ChatCompletionMessageParam[]) =>
    context.send({
      ...request,
      messages: [...baseMessages, ...extra],
      ...(protocol === 'prompted' ? { tools: undefined, toolChoice: undefined } : {}),
    });
  const earlier: ModelCallResult[] = [];
  let extra: ChatCompletionMessageParam[] = [];
  let corrected = false;
  let nudged = false;
  for (;;) {
    const raw = await send(extra);
    const read = readAnswer(raw, toolNames);
    // The stream gate holds such a model's next answers as reasoning until their `</think>`.
    if (read.reasoningClosedBare) await context.memory.rememberBareThink(endpointKeyOf(context.target));
    if (read.malformed && !corrected) {
      // One corrective answer, as a tool error would be: what was wrong and how to write it.
      corrected = true;
      request.onRetry?.({ attempt: earlier.length + 1, delayMs: 0, reason: 'a tool call written as text could not be read; asked again' });
      earlier.push(raw);
      extra = [...extra, { role: 'assistant', content: contentText(raw.message.content) }, { role: 'user', content: read.malformed }];
      continue;
    }
    if (read.empty && !nudged) {
      nudged = true;
      request.onRetry?.({ attempt: earlier.length + 1, delayMs: 0, reason: `empty answer (finish reason ${raw.finishReason ?? 'none'}); asked to answer briefly` });
      earlier.push(raw);
      extra = [...extra, { role: 'user', content: ANSWER_NOW_NUDGE }];
      continue;
    }
    if (read.empty) {
      const why = raw.finishReason === 'length' ? 'it ran out of tokens (finish reason "length") before writing any' : 'it was empty';
      throw new ModelBehaviorError(
        'empty-answer',
        `${context.target.label} gave no usable answer: ${why}, and again when asked to answer briefly. Raise its max_tokens or use another model.`,
      );
    }
    return withUsageOf({ ...read.result, toolProtocol: protocol }, earlier);
  }
}

interface ReadAnswer {
  result: ModelCallResult;
  /** Nothing to act on: no tool call and no visible text. */
  empty: boolean;
  /** What to tell the model about a call it wrote that could not be read. */
  malformed?: string;
  /** The answer opened with reasoning closed by a bare `</think>`. */
  reasoningClosedBare: boolean;
}

let textCallCounter = 0;

function toolCallOf(call: TextToolCall): ChatCompletionMessageFunctionToolCall {
  textCallCounter += 1;
  const id = call.id ?? `text_call_${textCallCounter}_${Math.random().toString(36).slice(2, 8)}`;
  return { id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } };
}

/**
 * The reply text of an answer as the run records it (no tool-call text, no reasoning): the one
 * reading the stream gate also ends each turn with, so the page and the record agree.
 */
export function answerText(content: string, toolNames: readonly string[]): string {
  const parsed = parseTextToolCalls(content, toolNames.length > 0 ? { toolNames } : {});
  if (toolNames.length > 0 && parsed.calls.length === 0 && parsed.malformed.length > 0) return parsed.visibleWithoutMalformed;
  return parsed.visibleText === content.trim() ? content : parsed.visibleText;
}

/** The answer as the runtime gets it: text calls read into `tool_calls`, reasoning apart, no call text shown. */
export function readAnswer(raw: ModelCallResult, toolNames: readonly string[]): ReadAnswer {
  const content = contentText(raw.message.content);
  const nativeCalls = raw.message.tool_calls ?? [];
  const reasoningParts = [raw.reasoning ?? ''];
  let text = content;
  let textCalls: ChatCompletionMessageFunctionToolCall[] = [];
  let malformed: string | undefined;
  let reasoningClosedBare: boolean;
  if (toolNames.length > 0) {
    const parsed = parseTextToolCalls(content, { toolNames });
    reasoningParts.push(parsed.reasoning);
    reasoningClosedBare = parsed.reasoningClosedBare;
    // An answer with nothing to take out is kept exactly as written.
    if (parsed.visibleText !== content.trim()) text = parsed.visibleText;
    textCalls = parsed.calls.map(toolCallOf);
    const firstMalformed = parsed.malformed[0];
    if (firstMalformed && textCalls.length === 0 && nativeCalls.length === 0) {
      malformed = `Your tool call could not be read: ${firstMalformed.text.slice(0, 300)}\nWrite it again as one block, exactly like this (valid JSON with "name" and "arguments"):\n<tool_call>\n{"name": "${firstMalformed.name ?? toolNames[0]}", "arguments": {}}\n</tool_call>`;
      text = parsed.visibleWithoutMalformed;
    }
  } else {
    // A wrap-up offered no tools: its reasoning and any calls it wrote anyway are not words for the reader.
    const parsed = parseTextToolCalls(content);
    reasoningParts.push(parsed.reasoning);
    reasoningClosedBare = parsed.reasoningClosedBare;
    if (parsed.visibleText !== content.trim()) text = parsed.visibleText;
  }
  const toolCalls = [...nativeCalls, ...textCalls];
  const message: ChatCompletionAssistantMessageParam =
    toolCalls.length > 0 ? { role: 'assistant', content: text === '' ? null : text, tool_calls: toolCalls } : { role: 'assistant', content: text };
  const reasoning = reasoningParts.filter((part) => part.trim() !== '').join('\n\n');
  const result: ModelCallResult = { message, finishReason: raw.finishReason, usage: raw.usage };
  if (reasoning) result.reasoning = reasoning;
  return { result, empty: toolCalls.length === 0 && text.trim() === '', reasoningClosedBare, ...(malformed ? { malformed } : {}) };
}
