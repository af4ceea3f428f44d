import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { ProviderError } from '../errors';
import type { PromptSnapshot } from '../hosts/prompt-snapshot';

export interface PlainAnswerRequest {
  baseURL: string;
  apiKey: string;
  model: string;
  snapshot: PromptSnapshot;
  signal?: AbortSignal;
}

/**
 * The runner's fail open (DESIGN.md §13): the snapshot as the page would have sent it, without
 * Retinue's instructions or tools, to the same endpoint, once. Resolves with the answer's text.
 *
 * @example
 * const answer = await askForPlainAnswer({ baseURL, apiKey, model, snapshot });
 */
export async function askForPlainAnswer(request: PlainAnswerRequest): Promise<string> {
  // Without a key the SDK would send `Bearer no-api-key`; local servers get no authorization at all.
  const client = new OpenAI({
    baseURL: request.baseURL,
    apiKey: request.apiKey || 'no-api-key',
    maxRetries: 0,
    ...(request.apiKey ? {} : { defaultHeaders: { authorization: null } }),
  });
  const { messages, stream: _stream, model: _model, ...sampling } = request.snapshot;
  const body = { ...sampling, model: request.model, messages: messages as ChatCompletionMessageParam[], stream: false } as ChatCompletionCreateParamsNonStreaming;
  let completion;
  try {
    completion = await client.chat.completions.create(body, request.signal ? { signal: request.signal } : undefined);
  } catch (error) {
    const said = error instanceof Error ? error.message : String(error);
    throw new ProviderError('provider-plain-answer-failed', `The model at ${request.baseURL} did not answer the plain request either (${said}): check the endpoint, then run again.`, { cause: error });
  }
  const content = completion.choices[0]?.message.content;
  if (typeof content !== 'string' || content.trim() === '') {
    throw new ProviderError('provider-plain-answer-empty', `The model at ${request.baseURL} answered the plain request with no text: check the model and its max_tokens, then run again.`);
  }
  return content;
}
