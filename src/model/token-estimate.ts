/**
 * Token counts Retinue makes itself when a provider reports no usage (SillyTavern drops
 * `stream_options`, so its streams carry none; some endpoints never send any). The counts come from
 * `tokenx`, a 2 KB estimator that stays within a few percent of `cl100k_base` on prompts of any
 * length (docs/performance.md has the measured error, tests/unit/model/token-accuracy.test.ts keeps
 * it), plus the per-message overheads OpenAI documents for its chat models. A tokenizer with its
 * 1 MB tables would be exact for one model family only and cost every worker start; every usage
 * built here says it is an estimate (`estimated: true`).
 */
import { estimateTokenCount } from 'tokenx';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { ModelCallUsage } from './model-client';

/** Counts the tokens of a text. */
export type TokenCounter = (text: string) => number;

/** Each message costs its role and separators on top of its content. */
const TOKENS_PER_MESSAGE = 3;
/** A message's `name` field costs one more. */
const TOKENS_PER_NAME = 1;
/** The reply is primed with `<|start|>assistant<|message|>`. */
const TOKENS_FOR_REPLY_PRIMING = 3;
/** Each tool call in a turn: its id, type and separators. */
const TOKENS_PER_TOOL_CALL = 3;
/** The tool section of the prompt, once, and each tool in it. */
const TOKENS_FOR_TOOL_SECTION = 12;
const TOKENS_PER_TOOL = 8;
/** An image part, counted as one low-detail tile (its real cost depends on the provider). */
const TOKENS_PER_IMAGE = 85;

/** Counts a text's tokens the way `cl100k_base` would, within the error docs/performance.md gives. */
export const estimateTextTokens: TokenCounter = (text) => (text === '' ? 0 : estimateTokenCount(text));

/**
 * The counter, as a promise so callers need not change if a better one ever has to load (the
 * estimator itself is small enough to ship in the background's bundle).
 */
export function loadTokenCounter(): Promise<TokenCounter> {
  return Promise.resolve(estimateTextTokens);
}

type ContentPart = { type: string; text?: string; refusal?: string };

function contentTokens(count: TokenCounter, content: ChatCompletionMessageParam['content']): number {
  if (content === null || content === undefined) return 0;
  if (typeof content === 'string') return count(content);
  let total = 0;
  for (const part of content as readonly ContentPart[]) {
    if (part.type === 'text' && typeof part.text === 'string') total += count(part.text);
    else if (part.type === 'refusal' && typeof part.refusal === 'string') total += count(part.refusal);
    else if (part.type === 'image_url') total += TOKENS_PER_IMAGE;
  }
  return total;
}

function toolCallTokens(count: TokenCounter, message: ChatCompletionAssistantMessageParam): number {
  let total = 0;
  for (const call of message.tool_calls ?? []) {
    total += TOKENS_PER_TOOL_CALL;
    if (call.type === 'function') total += count(call.function.name) + count(call.function.arguments);
    else total += count(JSON.stringify(call));
  }
  return total;
}

/** One message of a prompt: its overhead, name, content and (an assistant's) tool calls. */
export function messageTokens(count: TokenCounter, message: ChatCompletionMessageParam): number {
  let total = TOKENS_PER_MESSAGE + contentTokens(count, message.content);
  if ('name' in message && typeof message.name === 'string') total += TOKENS_PER_NAME + count(message.name);
  if (message.role === 'assistant') total += toolCallTokens(count, message);
  return total;
}

/** The tool definitions a call offers: each function's name, description and JSON schema. */
export function toolDefinitionTokens(count: TokenCounter, tools: readonly ChatCompletionTool[] | undefined): number {
  if (!tools || tools.length === 0) return 0;
  let total = TOKENS_FOR_TOOL_SECTION;
  for (const tool of tools) {
    total += TOKENS_PER_TOOL;
    if (tool.type === 'function') {
      const { name, description, parameters } = tool.function;
      total += count(name) + count(description ?? '') + (parameters ? count(JSON.stringify(parameters)) : 0);
    } else {
      total += count(JSON.stringify(tool));
    }
  }
  return total;
}

/** The prompt of a call: every message, the tool definitions and the reply's priming. */
export function promptTokens(count: TokenCounter, messages: readonly ChatCompletionMessageParam[], tools?: readonly ChatCompletionTool[]): number {
  let total = TOKENS_FOR_REPLY_PRIMING + toolDefinitionTokens(count, tools);
  for (const message of messages) total += messageTokens(count, message);
  return total;
}

/** The answer of a call: its text, its tool calls and the reasoning the model wrote before it. */
export function completionTokens(count: TokenCounter, message: ChatCompletionAssistantMessageParam, reasoning?: string): number {
  return contentTokens(count, message.content) + toolCallTokens(count, message) + count(reasoning ?? '');
}

/** Whether a provider reported usage: a real call always has a prompt, so zero in and out is none. */
export function usageReported(usage: ModelCallUsage): boolean {
  return usage.promptTokens > 0 || usage.completionTokens > 0;
}

/**
 * The usage of a call whose provider gave none, counted from what was sent and what came back,
 * marked estimated.
 */
export async function estimateCallUsage(
  sent: { messages: readonly ChatCompletionMessageParam[]; tools?: readonly ChatCompletionTool[] },
  answer: { message: ChatCompletionAssistantMessageParam; reasoning?: string },
): Promise<ModelCallUsage> {
  const count = await loadTokenCounter();
  const prompt = promptTokens(count, sent.messages, sent.tools);
  const completion = completionTokens(count, answer.message, answer.reasoning);
  return { promptTokens: prompt, completionTokens: completion, totalTokens: prompt + completion, estimated: true };
}

/** The usage of several sends that made one call; estimated when any part was. */
export function sumCallUsage(usages: readonly ModelCallUsage[]): ModelCallUsage {
  const sum: ModelCallUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  for (const usage of usages) {
    sum.promptTokens += usage.promptTokens;
    sum.completionTokens += usage.completionTokens;
    sum.totalTokens += usage.totalTokens;
    if (usage.estimated === true) sum.estimated = true;
  }
  return sum;
}
