import { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import {
  isContextLengthRefusal,
  isHistoryShapeRefusal,
  isStreamOptionsRefusal,
  isToolsRefusal,
  statedContextWindow,
  type EndpointRefusal,
  type StatedContextWindow,
} from './endpoint-refusals';

/** Which of Retinue's additions an endpoint refused, when a refusal says so. */
export type RefusalKind = 'context-length' | 'tools' | 'history-shape' | 'stream-options';

/** Why one attempt at a model call failed, as far as retrying is concerned. */
export type AttemptFailure =
  | {
      kind: 'status';
      status: number;
      retryable: boolean;
      retryAfterMs?: number;
      providerMessage: string;
      refusal?: RefusalKind;
      /** What a context-length refusal says of the window. */
      contextWindow?: StatedContextWindow;
    }
  | { kind: 'network'; retryable: true; detail: string }
  | { kind: 'stream-broken'; retryable: true; detail: string }
  /** The answer ended cleanly but early: a stream without a finish reason, or a JSON body cut short. */
  | { kind: 'cut'; retryable: true; detail: string }
  /** The endpoint answered, but not in the streamed chat-completions protocol; trying again cannot help. */
  | { kind: 'protocol'; retryable: false; detail: string }
  | { kind: 'aborted' };

export interface RetryTiming {
  /** Retries after the first attempt (default 3, so 4 attempts in all). */
  maxRetries: number;
  /** First backoff delay; doubles each retry (default 500 ms). */
  baseDelayMs: number;
  /** Cap on a computed backoff delay (default 10 s). */
  maxDelayMs: number;
  /** Cap on a provider's Retry-After (default 60 s): a longer one is cut to this. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_TIMING: RetryTiming = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 10_000, maxRetryAfterMs: 60_000 };

/** 408 and 409 are transient by convention (the OpenAI SDK retries them too); 429 and 5xx are load. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Classifies what an attempt threw. `duringStream` says the response had started, so a non-HTTP
 * error there is a stream that broke off rather than an unreachable endpoint.
 */
export function classifyFailure(error: unknown, options: { duringStream: boolean; signal: AbortSignal; now?: number }): AttemptFailure {
  if (options.signal.aborted || error instanceof APIUserAbortError) return { kind: 'aborted' };
  // An error sent inside a stream (llama.cpp's `data: {"error": {"code": 400, ...}}`) has no HTTP status but may carry one.
  const status = error instanceof APIError ? (error.status ?? embeddedStatus(error)) : undefined;
  if (error instanceof APIError && typeof status === 'number') {
    const refusal = refusalKindOf(error, status);
    const contextWindow = refusal === 'context-length' ? statedContextWindow(refusalText(error)) : undefined;
    return {
      kind: 'status',
      status,
      // Retrying cannot make an endpoint take tools or a longer prompt (llama.cpp refuses tools with a 500).
      retryable: isRetryableStatus(status) && refusal === undefined,
      retryAfterMs: retryAfterMs(error.headers, options.now ?? Date.now()),
      providerMessage: providerMessageOf(error),
      ...(refusal ? { refusal } : {}),
      ...(contextWindow ? { contextWindow } : {}),
    };
  }
  const detail = describeCause(error);
  if (error instanceof APIConnectionError && !options.duringStream) return { kind: 'network', retryable: true, detail };
  return options.duringStream ? { kind: 'stream-broken', retryable: true, detail } : { kind: 'network', retryable: true, detail };
}

/** Milliseconds a `Retry-After` (seconds or HTTP date) or `retry-after-ms` header asks to wait. */
export function retryAfterMs(headers: Headers | undefined, now: number): number | undefined {
  const milliseconds = headers?.get('retry-after-ms');
  if (milliseconds && Number.isFinite(Number(milliseconds))) return Math.max(0, Number(milliseconds));
  const value = headers?.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * How long to wait before retry number `retry` (1-based): the provider's Retry-After when it gave one
 * (capped), else exponential backoff with jitter (between half and all of the doubled delay), so
 * parallel children that failed together do not come back together.
 */
export function retryDelayMs(retry: number, failure: AttemptFailure, timing: RetryTiming, random: () => number = Math.random): number {
  if (failure.kind === 'status' && failure.retryAfterMs !== undefined) return Math.min(failure.retryAfterMs, timing.maxRetryAfterMs);
  const ceiling = Math.min(timing.maxDelayMs, timing.baseDelayMs * 2 ** (retry - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

function embeddedStatus(error: APIError): number | undefined {
  const body = error.error as { code?: unknown } | undefined;
  return typeof body?.code === 'number' && body.code >= 400 && body.code < 600 ? body.code : undefined;
}

/** Whether a refusal names the context length or the tools, read from the message and the whole error body. */
export function refusalKindOf(error: APIError, status: number): RefusalKind | undefined {
  const body = error.error as { param?: unknown; code?: unknown } | string | undefined;
  const fields = typeof body === 'object' && body !== null ? body : {};
  const refusal: EndpointRefusal = {
    status,
    text: refusalText(error),
    param: typeof fields.param === 'string' ? fields.param : null,
    code: typeof fields.code === 'string' || typeof fields.code === 'number' ? fields.code : null,
  };
  if (isContextLengthRefusal(refusal)) return 'context-length';
  if (isStreamOptionsRefusal(refusal)) return 'stream-options';
  if (isHistoryShapeRefusal(refusal)) return 'history-shape';
  if (isToolsRefusal(refusal)) return 'tools';
  return undefined;
}

/** The refusal's words: the SDK's message and the whole error body (fields such as llama.cpp's `n_ctx` included). */
function refusalText(error: APIError): string {
  return `${error.message} ${JSON.stringify(error.error ?? '')}`;
}

function providerMessageOf(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string') return body.message;
  return error.message;
}

function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const causeText = cause instanceof Error ? (cause as { code?: string }).code ?? cause.message : undefined;
  return causeText && !error.message.includes(causeText) ? `${error.message} (${causeText})` : error.message;
}
