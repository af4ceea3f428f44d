import { describe, expect, test } from 'vitest';
import { adapterForUrl, detectChatTurn, hostCallStatus } from '../../../src/hosts/detect-chat-turn';

const stUrl = 'http://127.0.0.1:8000/api/backends/chat-completions/generate';
const messages = [{ role: 'user', content: 'Hello' }];

describe('SillyTavern chat turns', () => {
  test.each([
    ['normal', true],
    ['regenerate', true],
    ['swipe', true],
    ['continue', false],
    ['quiet', false],
    ['impersonate', false],
    ['', false],
  ])('type %j is a chat turn: %s', (type, expected) => {
    const actual = detectChatTurn({ method: 'POST', url: stUrl, body: { type, messages } }) === 'sillytavern';
    expect(actual).toBe(expected);
  });

  test('a request without a type, without messages, or not a POST is no chat turn', () => {
    expect(detectChatTurn({ method: 'POST', url: stUrl, body: { messages } })).toBeUndefined();
    expect(detectChatTurn({ method: 'POST', url: stUrl, body: { type: 'normal' } })).toBeUndefined();
    expect(detectChatTurn({ method: 'GET', url: stUrl, body: undefined })).toBeUndefined();
    expect(detectChatTurn({ method: 'POST', url: stUrl, body: 'not json' })).toBeUndefined();
  });

  test("SillyTavern's other endpoints pass through", () => {
    for (const path of ['/api/backends/chat-completions/status', '/api/tokenizers/openai/count', '/csrf-token']) {
      const actual = detectChatTurn({ method: 'POST', url: `http://127.0.0.1:8000${path}`, body: { type: 'normal', messages } });
      expect(actual).toBeUndefined();
    }
  });
});

describe('OpenAI-style chat turns', () => {
  test('any POST to a path ending in /chat/completions with messages is a chat turn', () => {
    for (const url of ['http://127.0.0.1:8080/v1/chat/completions', 'https://example.test/api/openai/v1/chat/completions/', 'http://localhost/chat/completions?x=1']) {
      expect(detectChatTurn({ method: 'post', url, body: { messages } })).toBe('openai-chat');
    }
  });

  test('other paths, other methods and bodies without messages pass through', () => {
    expect(detectChatTurn({ method: 'POST', url: 'http://127.0.0.1/v1/completions', body: { messages } })).toBeUndefined();
    expect(detectChatTurn({ method: 'POST', url: 'http://127.0.0.1/v1/chat/completions/extra', body: { messages } })).toBeUndefined();
    expect(detectChatTurn({ method: 'GET', url: 'http://127.0.0.1/v1/chat/completions', body: undefined })).toBeUndefined();
    expect(detectChatTurn({ method: 'POST', url: 'http://127.0.0.1/v1/chat/completions', body: { prompt: 'x' } })).toBeUndefined();
  });
});

describe('detection', () => {
  test('the generate endpoint is sillytavern, any other chat-completions path openai-chat', () => {
    expect(adapterForUrl(stUrl)).toBe('sillytavern');
    expect(adapterForUrl('http://127.0.0.1:8080/v1/chat/completions')).toBe('openai-chat');
    expect(adapterForUrl('http://127.0.0.1:8080/v1/models')).toBeUndefined();
    expect(detectChatTurn({ method: 'POST', url: stUrl, body: { type: 'swipe', messages } })).toBe('sillytavern');
    expect(detectChatTurn({ method: 'POST', url: 'http://127.0.0.1:8080/v1/chat/completions', body: { messages } })).toBe('openai-chat');
  });
});

describe("the model's status behind a host call", () => {
  test.each([
    ['sillytavern', 400, 'Unauthorized', 401],
    ['sillytavern', 400, 'unauthorized ', 401],
    ['sillytavern', 400, 'Bad Request', 400],
    ['sillytavern', 400, '', 400],
    ['sillytavern', 429, 'Too Many Requests', 429],
    ['sillytavern', 200, 'OK', 200],
    ['openai-chat', 400, 'Unauthorized', 400],
    ['openai-chat', 401, 'Unauthorized', 401],
  ] as const)('%s answering %i %j is status %i', (adapter, status, statusText, expected) => {
    expect(hostCallStatus(adapter, { status, statusText })).toBe(expected);
  });
});
