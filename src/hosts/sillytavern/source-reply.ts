/**
 * What SillyTavern's Claude and Google source modules share: reading a whole reply's JSON, the
 * error an answer of the wrong shape becomes, the turn a reply's blocks make, and tool-call
 * arguments its server can parse.
 */
import type { ChatCompletionAssistantMessageParam, ChatCompletionMessageFunctionToolCall } from 'openai/resources/chat/completions';
import type { z } from 'zod';
import type { CompletionBodyOutcome } from '../../model/completion-body';
import type { ModelCallResult } from '../../model/model-client';

type Failure = Extract<CompletionBodyOutcome, { ok: false }>;

/** The reply's JSON, or a cut (a body that does not parse was cut short, and is retried like a reset). */
export function parseReplyJson(text: string): { ok: true; value: unknown } | Failure {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, failure: { kind: 'cut', retryable: true, detail: `its JSON body broke off after ${text.length} characters` } };
  }
}

/**
 * An answer of the wrong shape: the server's own `{error: {message}}` (SillyTavern sends some provider
 * failures with status 200) in its words, otherwise what was expected and the first schema issue.
 */
export function readFailure(value: unknown, expected: string, error: z.ZodError): Failure {
  const said = errorMessageOf(value);
  if (said !== undefined) return { ok: false, failure: { kind: 'protocol', retryable: false, detail: `SillyTavern answered with an error: ${said}` } };
  const issue = error.issues[0];
  const where = issue ? ` (${issue.path.join('.') || 'the body'}: ${issue.message})` : '';
  return { ok: false, failure: { kind: 'protocol', retryable: false, detail: `${expected}${where}` } };
}

/**
 * The turn a source's reply blocks make, read into the OpenAI shape: its text, its tool calls, its
 * reasoning. SillyTavern's wrapper keeps neither the source's stop reason nor its usage (the model
 * client estimates the tokens).
 */
export function turnOfBlocks(content: string, toolCalls: ChatCompletionMessageFunctionToolCall[], thoughts: string[]): ModelCallResult {
  const message: ChatCompletionAssistantMessageParam =
    toolCalls.length > 0 ? { role: 'assistant', content: content === '' ? null : content, tool_calls: toolCalls } : { role: 'assistant', content };
  const result: ModelCallResult = {
    message,
    finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
  };
  const reasoning = thoughts.join('\n\n');
  if (reasoning) result.reasoning = reasoning;
  return result;
}

function errorMessageOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || !('error' in value)) return undefined;
  const error = (value as { error: unknown }).error;
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') {
    return (error as { message: string }).message.slice(0, 1_000);
  }
  return error ? 'no details given (see SillyTavern’s server console)' : undefined;
}

/**
 * An assistant message whose tool calls all carry a JSON object as arguments: SillyTavern's server
 * parses them into Claude's `input` (and Google's `args`), and a call a model wrote broken would
 * otherwise fail every later request of the loop. The model already got a tool error for it.
 */
export function fixToolCallArguments(message: unknown): unknown {
  if (typeof message !== 'object' || message === null) return message;
  const calls = (message as { tool_calls?: unknown }).tool_calls;
  if (!Array.isArray(calls)) return message;
  return {
    ...message,
    tool_calls: calls.map((call: unknown) => {
      const fn = (call as { function?: { arguments?: unknown } } | null)?.function;
      if (!fn || isJsonObjectText(fn.arguments)) return call;
      return { ...(call as object), function: { ...fn, arguments: '{}' } };
    }),
  };
}

function isJsonObjectText(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
