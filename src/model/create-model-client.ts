import OpenAI from 'openai';
import { Stream } from 'openai/core/streaming';
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
} from 'openai/resources/chat/completions';
import { ConfigurationError } from '../errors';
import { readCompletionBody } from './completion-body';
import { checkedCall } from './checked-call';
import { cancelledBy, createConcurrencyLimiter, type ConcurrencyLimiter } from './concurrency-limiter';
import type { ModelCallRequest, ModelCallResult, ModelCallRetry, ModelClient, ModelTarget } from './model-client';
import { learnedWindowFrom } from './context-window';
import { providerErrorFor, redact } from './provider-errors';
import { readRanWithHeader } from './ran-with-header';
import { classifyFailure, DEFAULT_RETRY_TIMING, retryDelayMs, type AttemptFailure, type RetryTiming } from './retry-policy';
import { StreamAssembler } from './stream-assembler';
import { estimateCallUsage, loadTokenCounter, promptTokens, usageReported } from './token-estimate';
import { createInMemoryToolProtocolMemory, endpointKeyOf, type ToolProtocolMemory } from './tool-protocol-memory';

/** Where endpoints that refused native tools are remembered when a client is given no memory of its own. */
const processToolProtocolMemory = createInMemoryToolProtocolMemory();

export interface ModelClientOptions extends Partial<RetryTiming> {
  /** Told before each retry of any call through this client. */
  onRetry?: (retry: ModelCallRetry) => void;
  /**
   * Shares a slot pool between clients (e.g. one per connection, whatever the model); by default
   * each client gets its own limiter of `target.maxConcurrency` slots (unlimited when unset).
   */
  limiter?: ConcurrencyLimiter;
  /** Remembers what endpoints refused: native tools, `stream_options`, a prompt over their window (the browser's is kept in extension storage). */
  toolProtocolMemory?: ToolProtocolMemory;
}

type AttemptOutcome = { ok: true; result: ModelCallResult } | { ok: false; failure: AttemptFailure };

/**
 * A ModelClient over the `openai` SDK for one target: streams and assembles text and tool-call
 * deltas into one assistant message (or, for a target with `wholeReply`, calls non-streamed and
 * reads the reply with it), retries 429, 5xx, 408/409 and network faults (a stream cut
 * included) with backoff honouring Retry-After, then rejects with a ProviderError. Aborting the
 * request's signal rejects with a CancelledError at once, without retrying.
 *
 * @example
 * const client = createModelClient({ label: 'connection local · qwen3-8b', baseURL, apiKey: '', model: 'qwen3-8b' });
 * const { message, usage } = await client.call({ messages, tools, signal });
 */
export function createModelClient(target: ModelTarget, options: ModelClientOptions = {}): ModelClient {
  const timing: RetryTiming = {
    maxRetries: options.maxRetries ?? DEFAULT_RETRY_TIMING.maxRetries,
    baseDelayMs: options.baseDelayMs ?? DEFAULT_RETRY_TIMING.baseDelayMs,
    maxDelayMs: options.maxDelayMs ?? DEFAULT_RETRY_TIMING.maxDelayMs,
    maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULT_RETRY_TIMING.maxRetryAfterMs,
  };
  const limiter = options.limiter ?? createConcurrencyLimiter(target.maxConcurrency ?? Number.POSITIVE_INFINITY);
  // Our own retry loop below replaces the SDK's, so that a stream cut mid-way is retried too.
  const sdk = new OpenAI({
    baseURL: target.baseURL,
    // The SDK refuses an empty key; local servers often need none, so send no Authorization then.
    apiKey: target.apiKey || 'no-api-key',
    ...(target.apiKey ? {} : { defaultHeaders: { authorization: null } }),
    fetch: target.fetch,
    maxRetries: 0,
    dangerouslyAllowBrowser: true,
  });
  const callName = `The call to ${target.label}`;
  const memory = options.toolProtocolMemory ?? processToolProtocolMemory;
  const endpointKey = endpointKeyOf(target);

  async function attempt(request: ModelCallRequest, streamOptions: boolean): Promise<AttemptOutcome> {
    let duringStream = false;
    // The SDK adds an abort listener to the signal it gets and never removes it; a long-lived
    // invocation signal would collect one per call, so each attempt gets its own linked signal.
    const attemptController = new AbortController();
    const forwardAbort = () => attemptController.abort(request.signal.reason);
    request.signal.addEventListener('abort', forwardAbort, { once: true });
    if (request.signal.aborted) forwardAbort();
    try {
      if (target.wholeReply) {
        const body = target.wholeReply.callBody(requestBody(target, request, streamOptions) as unknown as Record<string, unknown>);
        const whole = await sdk.chat.completions
          .create(body as unknown as ChatCompletionCreateParamsNonStreaming, { signal: attemptController.signal })
          .asResponse();
        duringStream = true;
        const outcome = target.wholeReply.readReply(await whole.text());
        if (outcome.ok) reportWholeTurn(outcome.result, request);
        return outcome;
      }
      const response = await sdk.chat.completions.create(requestBody(target, request, streamOptions), { signal: attemptController.signal }).asResponse();
      duringStream = true;
      const ranWith = readRanWithHeader(response.headers);
      if (ranWith) request.onRanWith?.(ranWith);
      // A few servers answer plain JSON even to a streamed request: read it as one whole answer.
      if (response.headers.get('content-type')?.includes('application/json')) return readCompletionBody(await response.text());
      const stream = Stream.fromSSEResponse<ChatCompletionChunk>(response, attemptController);
      const assembler = new StreamAssembler();
      let chunkCount = 0;
      for await (const chunk of stream) {
        chunkCount += 1;
        const text = assembler.add(chunk);
        reportDeltas(chunk, request);
        if (text) request.onTextDelta?.(text);
      }
      // The SDK ends the iteration quietly when the request is aborted.
      if (request.signal.aborted) return { ok: false, failure: { kind: 'aborted' } };
      if (chunkCount > 0 && assembler.finishReasonSeen === false) {
        return { ok: false, failure: { kind: 'cut', retryable: true, detail: 'the stream ended without a finish reason' } };
      }
      if (chunkCount === 0) {
        const detail = 'its answer held no stream events; the endpoint may not support streaming (`stream: true`)';
        return { ok: false, failure: { kind: 'protocol', retryable: false, detail } };
      }
      const turn = assembler.finish();
      const result: ModelCallResult = { message: turn.message, finishReason: turn.finishReason, usage: turn.usage };
      if (turn.reasoning) result.reasoning = turn.reasoning;
      return { ok: true, result };
    } catch (error) {
      // The page refused the call for a reason only the user can fix (a connection profile gone): no retry.
      const configuration = configurationErrorIn(error);
      if (configuration) throw configuration;
      return { ok: false, failure: classifyFailure(error, { duringStream, signal: request.signal }) };
    } finally {
      request.signal.removeEventListener('abort', forwardAbort);
    }
  }

  async function callWithRetries(request: ModelCallRequest): Promise<ModelCallResult> {
    let streamOptions = !(await memory.refusesStreamOptions(endpointKey));
    for (let attemptNumber = 1; ; attemptNumber += 1) {
      if (request.signal.aborted) throw cancelledBy(request.signal, callName);
      const release = await limiter.acquire(request.signal, { urgent: request.urgent === true }).catch(() => {
        throw cancelledBy(request.signal, callName);
      });
      let outcome: AttemptOutcome;
      try {
        request.onAttemptStart?.();
        outcome = await attempt(request, streamOptions);
      } finally {
        release();
      }
      if (outcome.ok) return withUsage(request, outcome.result);
      const failure = outcome.failure;
      if (failure.kind === 'aborted') throw cancelledBy(request.signal, callName);
      if (failure.kind === 'status' && failure.refusal === 'stream-options' && streamOptions) {
        // Usage in a stream is a nicety (Retinue estimates it otherwise): ask again at once without it, and remember.
        streamOptions = false;
        await memory.rememberStreamOptionsRefused(endpointKey);
        continue;
      }
      if (failure.kind === 'status' && failure.contextWindow) {
        const count = await loadTokenCounter();
        await memory.rememberContextWindow(endpointKey, learnedWindowFrom(failure.contextWindow, promptTokens(count, request.messages, request.tools)));
      }
      if (!failure.retryable || attemptNumber > timing.maxRetries) {
        throw providerErrorFor(target, failure, attemptNumber, { toolsOffered: (request.tools?.length ?? 0) > 0 });
      }
      const retry: ModelCallRetry = {
        attempt: attemptNumber,
        delayMs: retryDelayMs(attemptNumber, failure, timing),
        reason: redact(describeFailure(failure), target),
        ...(failure.kind === 'status' ? { status: failure.status } : {}),
      };
      options.onRetry?.(retry);
      request.onRetry?.(retry);
      await sleep(retry.delayMs, request.signal, callName);
    }
  }

  return {
    label: target.label,
    ...(target.pageModel !== undefined ? { pageModel: target.pageModel } : {}),
    call: (request) => checkedCall({ target, memory, send: callWithRetries }, request),
    contextWindow: () => memory.contextWindow(endpointKey),
    opensWithBareThink: () => memory.opensWithBareThink(endpointKey),
  };
}

/** The result with the provider's usage, or Retinue's estimate (marked so) where it reported none. */
async function withUsage(request: ModelCallRequest, result: ModelCallResult): Promise<ModelCallResult> {
  if (usageReported(result.usage)) return result;
  const sent = { messages: request.messages, ...(request.tools ? { tools: request.tools } : {}) };
  return { ...result, usage: await estimateCallUsage(sent, { message: result.message, ...(result.reasoning ? { reasoning: result.reasoning } : {}) }) };
}

/** A ConfigurationError thrown by the call's fetch, which the SDK wraps as the cause of a connection error. */
function configurationErrorIn(error: unknown): ConfigurationError | undefined {
  if (error instanceof ConfigurationError) return error;
  const cause = error instanceof Error ? (error as { cause?: unknown }).cause : undefined;
  return cause instanceof ConfigurationError ? cause : undefined;
}

/** Tells the request's listeners about a chunk's reasoning and tool-call deltas. */
function reportDeltas(chunk: ChatCompletionChunk, request: ModelCallRequest): void {
  const delta = chunk.choices[0]?.delta as (ChatCompletionChunk.Choice.Delta & { reasoning_content?: unknown; reasoning?: unknown }) | undefined;
  if (!delta) return;
  const reasoning = delta.reasoning_content ?? delta.reasoning;
  if (typeof reasoning === 'string' && reasoning !== '') request.onReasoningDelta?.(reasoning);
  if ((delta.tool_calls?.length ?? 0) > 0) request.onToolCallDelta?.();
}

/**
 * Tells the request's listeners about a turn read whole as if it came in one delta each (tool calls
 * first, so that the text of a tool-calling turn is never shown as a reply).
 */
function reportWholeTurn(result: ModelCallResult, request: ModelCallRequest): void {
  if ((result.message.tool_calls?.length ?? 0) > 0) request.onToolCallDelta?.();
  if (result.reasoning) request.onReasoningDelta?.(result.reasoning);
  const text = typeof result.message.content === 'string' ? result.message.content : '';
  if (text) request.onTextDelta?.(text);
}

/** The streaming request body: the host's extra fields first, ours over them (`stream_options` where the endpoint takes it). */
function requestBody(target: ModelTarget, request: ModelCallRequest, streamOptions: boolean): ChatCompletionCreateParamsStreaming {
  const hasTools = (request.tools?.length ?? 0) > 0;
  return {
    ...target.extraBody,
    model: target.model,
    messages: request.messages,
    ...(hasTools ? { tools: request.tools } : {}),
    ...(hasTools && request.toolChoice !== undefined ? { tool_choice: request.toolChoice } : {}),
    ...request.sampling,
    stream: true,
    ...(streamOptions ? { stream_options: { include_usage: true } } : {}),
  };
}

function describeFailure(failure: Exclude<AttemptFailure, { kind: 'aborted' }>): string {
  if (failure.kind === 'status') return `${failure.status}: ${failure.providerMessage}`;
  if (failure.kind === 'stream-broken') return `stream broke off: ${failure.detail}`;
  if (failure.kind === 'cut') return `answer cut short: ${failure.detail}`;
  if (failure.kind === 'protocol') return failure.detail;
  return `unreachable: ${failure.detail}`;
}

/** Waits `delayMs`, or rejects with CancelledError as soon as `signal` aborts. */
function sleep(delayMs: number, signal: AbortSignal, what: string): Promise<void> {
  if (signal.aborted) return Promise.reject(cancelledBy(signal, what));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelledBy(signal, what));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, delayMs);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
