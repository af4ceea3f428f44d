import { APIConnectionError, RateLimitError } from 'openai';
import { describe, expect, test } from 'vitest';
import { classifyFailure, DEFAULT_RETRY_TIMING, isRetryableStatus, retryAfterMs, retryDelayMs } from '../../../src/model/retry-policy';

const now = Date.parse('2026-11-30T08:00:00Z');

describe('retry policy', () => {
  test('Retry-After is read as seconds, as an HTTP date, or from retry-after-ms', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Mon, 30 Nov 2026 08:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(new Headers(), now)).toBeUndefined();
  });

  test('a long Retry-After is capped, and backoff doubles with jitter up to its cap', () => {
    const timing = { ...DEFAULT_RETRY_TIMING, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 5000 };
    const limited = { kind: 'status' as const, status: 429, retryable: true, retryAfterMs: 3_600_000, providerMessage: '' };
    const network = { kind: 'network' as const, retryable: true as const, detail: 'ECONNREFUSED' };

    expect(retryDelayMs(1, limited, timing)).toBe(5000);
    expect([1, 2, 3, 4, 5].map((retry) => retryDelayMs(retry, network, timing, () => 1))).toEqual([100, 200, 400, 800, 1000]);
    expect(retryDelayMs(3, network, timing, () => 0)).toBe(200);
  });

  test('only load, timeouts and conflicts are retried among HTTP statuses', () => {
    expect([400, 401, 403, 404, 408, 409, 422, 429, 500, 503].filter(isRetryableStatus)).toEqual([408, 409, 429, 500, 503]);
  });

  test('failures are told apart: status, unreachable, stream broken, aborted', () => {
    const signal = new AbortController().signal;
    const rateLimit = new RateLimitError(429, { message: 'Slow down.' }, undefined, new Headers({ 'retry-after': '1' }));

    expect(classifyFailure(rateLimit, { duringStream: false, signal, now })).toEqual({
      kind: 'status',
      status: 429,
      retryable: true,
      retryAfterMs: 1000,
      providerMessage: 'Slow down.',
    });
    expect(classifyFailure(new APIConnectionError({ message: 'Connection error.' }), { duringStream: false, signal }).kind).toBe('network');
    expect(classifyFailure(new TypeError('terminated'), { duringStream: true, signal }).kind).toBe('stream-broken');
    expect(classifyFailure(new Error('x'), { duringStream: true, signal: AbortSignal.abort() }).kind).toBe('aborted');
  });
});
