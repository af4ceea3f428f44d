/**
 * Reads a whole (non-streamed) `chat.completion` JSON body, which a few servers send even to a
 * streamed request. A body that does not parse was cut short: a cut, retried like a reset.
 */
import type { ChatCompletionAssistantMessageParam, ChatCompletionMessageFunctionToolCall } from 'openai/resources/chat/completions';
import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import type { ModelCallResult } from './model-client';
import type { AttemptFailure } from './retry-policy';

const completionBodySchema = lazySchema(() => z.object({
  choices: z
    .array(
      z.object({
        finish_reason: z.string().nullish(),
        message: z.object({
          content: z.string().nullish(),
          reasoning_content: z.string().nullish(),
          reasoning: z.string().nullish(),
          tool_calls: z
            .array(z.object({ id: z.string().nullish(), function: z.object({ name: z.string(), arguments: z.string().nullish() }) }))
            .nullish(),
        }),
      }),
    )
    .min(1),
  usage: z.object({ prompt_tokens: z.number().nullish(), completion_tokens: z.number().nullish(), total_tokens: z.number().nullish() }).nullish(),
}));

export type CompletionBodyOutcome = { ok: true; result: ModelCallResult } | { ok: false; failure: Exclude<AttemptFailure, { kind: 'aborted' }> };

export function readCompletionBody(text: string): CompletionBodyOutcome {
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    return { ok: false, failure: { kind: 'cut', retryable: true, detail: `its JSON body broke off after ${text.length} characters` } };
  }
  const parsed = completionBodySchema.safeParse(json);
  if (!parsed.success) {
    return { ok: false, failure: { kind: 'protocol', retryable: false, detail: 'its JSON answer is not a chat completion (no choices[0].message)' } };
  }
  const choice = parsed.data.choices[0] as z.infer<typeof completionBodySchema>['choices'][number];
  const toolCalls: ChatCompletionMessageFunctionToolCall[] = (choice.message.tool_calls ?? []).map((call, position) => ({
    id: call.id || `call_${position}_${Math.random().toString(36).slice(2, 10)}`,
    type: 'function',
    function: { name: call.function.name, arguments: call.function.arguments ?? '' },
  }));
  const content = choice.message.content ?? '';
  const message: ChatCompletionAssistantMessageParam =
    toolCalls.length > 0 ? { role: 'assistant', content: content === '' ? null : content, tool_calls: toolCalls } : { role: 'assistant', content };
  const usage = parsed.data.usage;
  const promptTokens = usage?.prompt_tokens ?? 0;
  const completionTokens = usage?.completion_tokens ?? 0;
  const result: ModelCallResult = {
    message,
    finishReason: choice.finish_reason ?? null,
    usage: { promptTokens, completionTokens, totalTokens: usage?.total_tokens ?? promptTokens + completionTokens },
  };
  const reasoning = choice.message.reasoning_content ?? choice.message.reasoning;
  if (reasoning) result.reasoning = reasoning;
  if (result.finishReason === null) return { ok: false, failure: { kind: 'cut', retryable: true, detail: 'its JSON answer has no finish reason' } };
  return { ok: true, result };
}
