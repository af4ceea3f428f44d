import { describe, expect, test } from 'vitest';
import type { ModelTarget } from '../../../src/model/model-client';
import { providerErrorFor } from '../../../src/model/provider-errors';

const target: ModelTarget = { label: "connection 'local' · qwen3-8b", baseURL: 'http://127.0.0.1:8080/v1', apiKey: 'sk-very-secret', model: 'qwen3-8b' };
const status = (code: number, providerMessage = '') => ({ kind: 'status' as const, status: code, retryable: code === 429 || code >= 500, providerMessage });

describe('provider errors', () => {
  test('each kind of failure names the endpoint, what happened and what to do', () => {
    const cases = [
      [providerErrorFor(target, status(404, 'model not found'), 1), 'provider-not-found', "answered 404 Not Found (\"model not found\"): check the base URL and that the model 'qwen3-8b' exists there."],
      [providerErrorFor(target, status(429), 4), 'provider-rate-limited', "answered 429 Too Many Requests (after 4 tries): the provider is rate-limiting; wait a little, or lower the concurrency of connection 'local' · qwen3-8b."],
      [providerErrorFor(target, status(400, 'tools are not supported'), 1), 'provider-rejected', 'answered 400 Bad Request ("tools are not supported"): the provider refused the request'],
      [providerErrorFor(target, status(403), 1), 'provider-unauthorized', "answered 403 Forbidden: check the API key of connection 'local' · qwen3-8b in Retinue's options."],
      [providerErrorFor(target, { kind: 'network', retryable: true, detail: 'fetch failed (ECONNREFUSED)' }, 4), 'provider-unreachable', 'could not be reached after 4 tries (fetch failed (ECONNREFUSED)): check that the server is running'],
    ] as const;

    for (const [error, code, words] of cases) {
      expect(error.code).toBe(code);
      expect(error.message).toContain(`The model endpoint of connection 'local' · qwen3-8b`);
      expect(error.message).not.toContain('127.0.0.1');
      expect(error.message).toContain(words);
    }
  });

  test('a key the provider echoes back is removed', () => {
    const actual = providerErrorFor(target, status(401, 'Incorrect API key provided: sk-very-secret'), 1);

    expect(actual.message).toContain('Incorrect API key provided: [api key]');
    expect(actual.message).not.toContain('sk-very-secret');
    expect(actual.status).toBe(401);
  });

  test('addresses the provider or the network error quote are removed: the endpoint is named by its label only', () => {
    const keyed: ModelTarget = { ...target, baseURL: 'https://api.example.com/v1?token=abc' };
    const cases = [
      providerErrorFor(keyed, status(404, 'No route for https://api.example.com/v1/chat/completions?token=abc'), 1),
      providerErrorFor(keyed, { kind: 'network', retryable: true, detail: 'getaddrinfo ENOTFOUND api.example.com' }, 2),
      providerErrorFor(keyed, { kind: 'protocol', retryable: false, detail: 'HTML from http://10.0.0.5:8080/login' }, 1),
    ];
    for (const error of cases) {
      expect(error.message).toContain("The model endpoint of connection 'local' · qwen3-8b");
      expect(error.message).not.toMatch(/api\.example\.com|token=abc|10\.0\.0\.5/);
      expect(error.message).toContain('[address]');
    }
  });
});
