import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { CancelledError, ConfigurationError, HostContractError, ModelBehaviorError, RetinueError } from '../../../src/errors';
import { providerErrorFor } from '../../../src/model/provider-errors';
import { fallbackForError, PageModelFallbackError } from '../../../src/runtime/fail-open';

const target = { label: "the page's own model", baseURL: 'http://127.0.0.1:8000/', apiKey: 'sk-secret', model: 'gemma3:4b' };

interface CorpusEntry {
  id: string;
  status: number;
  body: unknown;
}

/** The provider's words in a corpus error body, in the envelopes the corpus holds. */
function providerMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return body;
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as { error?: unknown; message?: unknown };
  if (typeof record.error === 'string') return record.error;
  if (typeof record.error === 'object' && record.error !== null) return (record.error as { message?: string }).message;
  return typeof record.message === 'string' ? record.message : undefined;
}

const toolRefusals = (JSON.parse(readFileSync(new URL('../../fixtures/corpora/tools-unsupported-errors.json', import.meta.url), 'utf8')) as CorpusEntry[]).flatMap((entry) => {
  const message = providerMessage(entry.body);
  return entry.status >= 400 && message ? [[entry.id, entry.status, message] as const] : [];
});

const statusError = (status: number, providerMessage: string) =>
  providerErrorFor(target, { kind: 'status', status, retryable: status >= 500 || status === 429, providerMessage }, 1);

describe('fallbackForError: the page gets its own generation', () => {
  test.each(toolRefusals)('for a refusal of tools (%s, %i)', (_id, status, message) => {
    expect(fallbackForError(statusError(status, message))).toEqual({ code: 'tools-refused', reason: expect.stringContaining(message.slice(0, 40)) as string });
  });

  test.each(['tools-refused', 'context-too-long', 'empty-answer', 'cut-answer'])('for the model layer ending %s', (code) => {
    const error = new RetinueError('provider', code, 'The endpoint could not serve this run.');
    expect(fallbackForError(error)).toEqual({ code, reason: 'The endpoint could not serve this run.' });
  });

  test('for an error of Retinue itself', () => {
    expect(fallbackForError(new HostContractError('unexpected-error', 'QuotaExceededError: the store is full'))).toEqual({
      code: 'retinue-error',
      reason: 'QuotaExceededError: the store is full',
    });
  });

  test('for a reason a caller names (a limit the turn met)', () => {
    const fallback = { code: 'limit-root-timeout', reason: 'The turn ran past its time limit.' };
    expect(fallbackForError(new PageModelFallbackError(fallback))).toEqual(fallback);
  });
});

describe('fallbackForError: the page gets the error it would have had anyway', () => {
  test.each([
    ['a refused key', statusError(401, 'tools key invalid')],
    ['a forbidden key', statusError(403, 'no access to function calling')],
    ['no quota', statusError(402, 'insufficient_quota')],
    ['a missing model', statusError(404, 'model not found')],
    ['the provider down', statusError(503, 'overloaded')],
    ['rate limits after retries', statusError(429, 'too many requests for tools')],
    ['a refusal that does not name tools', statusError(400, 'temperature must be at most 2')],
  ])('%s', (_case, error) => {
    expect(fallbackForError(error)).toBeUndefined();
  });

  test('a model name in Retinue\'s advice is not taken for the provider naming tools', () => {
    const error = providerErrorFor({ ...target, model: 'functions-7b' }, { kind: 'status', status: 400, retryable: false, providerMessage: 'bad request' }, 1);
    expect(fallbackForError(error)).toBeUndefined();
  });

  test.each([
    ['cancelled', new CancelledError()],
    ['settings to fix', new ConfigurationError('connection-missing', 'The connection "local" does not exist.')],
    ['a model mistake', new ModelBehaviorError('tool-unknown', 'No such tool.')],
  ])('%s', (_case, error) => {
    expect(fallbackForError(error)).toBeUndefined();
  });
});
