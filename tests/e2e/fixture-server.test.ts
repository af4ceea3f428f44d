import http from 'node:http';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { startFixtureServer, type FixtureServer } from './support/fixture-server';

/**
 * The fixture server without a browser: its SillyTavern backend behaves as SillyTavern's server does
 * for a Custom (OpenAI-compatible) source, and its proxy and static files behave as the pages need.
 */

let model: ScriptedModelServer;
let fixtures: FixtureServer;
const apiKey = 'sk-proxy-key';

beforeAll(async () => {
  model = await startScriptedModelServer();
  fixtures = await startFixtureServer({ modelBaseUrl: model.baseURL, modelApiKey: apiKey });
});
afterAll(async () => {
  await fixtures.close();
  await model.close();
});
beforeEach(() => model.reset());

const generateUrl = () => `${fixtures.origins.primary}/api/backends/chat-completions/generate`;

function generate(body: Record<string, unknown>, options: { token?: string; signal?: AbortSignal } = {}) {
  return fetch(generateUrl(), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': options.token ?? fixtures.csrfToken },
    body: JSON.stringify({ type: 'normal', model: 'scripted-model', chat_completion_source: 'custom', custom_url: model.baseURL, ...body }),
    signal: options.signal,
  });
}

test('a streamed generation comes back as the provider SSE, every event a data line, ending with [DONE]', async () => {
  model.script(() => ({ content: 'Once upon a tide.', reasoning: 'Opening line.' }));
  const response = await generate({ messages: [{ role: 'user', content: 'Begin.' }], stream: true });
  const text = await response.text();
  const events = text.split('\n\n').filter(Boolean);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  expect(events.every((event) => event.startsWith('data: '))).toBe(true);
  expect(events.at(-1)).toBe('data: [DONE]');
  const deltas = events.slice(0, -1).map((event) => JSON.parse(event.slice(6)) as { choices: Array<{ delta: { content?: string; reasoning_content?: string } }> });
  expect(deltas.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('Once upon a tide.');
  expect(deltas.map((chunk) => chunk.choices[0]?.delta.reasoning_content ?? '').join('')).toBe('Opening line.');
});

test('only the provider fields reach the model; SillyTavern fields stay on the server', async () => {
  model.script(() => ({ content: 'ok' }));
  await generate({ messages: [{ role: 'user', content: 'Hi' }], stream: false, temperature: 0.7, char_name: 'Narrator' });
  const forwarded = model.requests[0]?.body as unknown as Record<string, unknown>;
  expect(forwarded).toMatchObject({ model: 'scripted-model', temperature: 0.7, stream: false });
  expect(forwarded.type).toBeUndefined();
  expect(forwarded.chat_completion_source).toBeUndefined();
  expect(forwarded.custom_url).toBeUndefined();
  expect(forwarded.char_name).toBeUndefined();
});

test('a wrong CSRF token is refused with 403 and nothing reaches the model', async () => {
  const response = await generate({ messages: [], stream: false }, { token: 'forged' });
  expect(response.status).toBe(403);
  expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/CSRF/);
  expect(model.requests).toHaveLength(0);
});

test('a provider error comes back with its status and an {error: {message}} body', async () => {
  model.script(() => ({ fault: 'status', status: 429, message: 'Slow down.' }));
  const response = await generate({ messages: [{ role: 'user', content: 'Hi' }], stream: true });
  expect(response.status).toBe(429);
  expect(await response.json()).toEqual({ error: { message: 'Slow down.' } });
});

test('when the page aborts a generation, the request to the model is closed too', async () => {
  model.script(() => ({ fault: 'hang', afterChunks: 1, turn: { content: 'never ending story' } }));
  const abort = new AbortController();
  const response = await generate({ messages: [{ role: 'user', content: 'Go on.' }], stream: true }, { signal: abort.signal });
  const reader = response.body!.getReader();
  await reader.read();
  abort.abort();
  await expect.poll(() => model.requests[0]?.outcome, { timeout: 5_000 }).toBe('client-closed');
});

test('the /v1 proxy forwards to the model server with its own API key', async () => {
  model.script(() => ({ content: 'proxied' }));
  const response = await fetch(`${fixtures.origins.secondary}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer from-the-page' },
    body: JSON.stringify({ model: 'scripted-model', messages: [{ role: 'user', content: 'Hi' }] }),
  });
  const answer = (await response.json()) as { choices: Array<{ message: { content: string } }> };
  expect(answer.choices[0]?.message.content).toBe('proxied');
  expect(model.requests[0]?.headers.authorization).toBe(`Bearer ${apiKey}`);
});

test('static files: pages are served, paths outside tests/fixtures are not, ?csp=strict adds a policy', async () => {
  const page = await fetch(fixtures.pageUrl('/openai-chat/', { csp: 'strict' }));
  expect(page.status).toBe(200);
  expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
  expect(await page.text()).toContain('<title>Fixture chat (OpenAI-style)</title>');
  const escapeStatus = await new Promise<number>((resolve, reject) => {
    http.get({ host: '127.0.0.1', port: fixtures.port, path: '/%2e%2e/%2e%2e/package.json' }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    }).on('error', reject);
  });
  expect(escapeStatus).toBe(404);
});
