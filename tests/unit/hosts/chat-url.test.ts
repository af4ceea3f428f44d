import { expect, test } from 'vitest';
import { chatRouteOfUrl } from '../../../src/hosts/chat-url';
import { pageChatOf } from '../../../src/bridge/page-chat';

test('a chat route in the address names the open chat: llama.cpp’s hash route, Open WebUI’s and LibreChat’s path', () => {
  expect(chatRouteOfUrl('http://127.0.0.1:8080/#/chat/conv-1764480000123')).toBe('#/chat/conv-1764480000123');
  expect(chatRouteOfUrl('http://localhost:3000/c/3f2a9c1e-5b7d-4e21-9a0f-1c2d3e4f5a6b')).toBe('/c/3f2a9c1e-5b7d-4e21-9a0f-1c2d3e4f5a6b');
  expect(chatRouteOfUrl('https://chat.example/c/3f2a9c1e-5b7d-4e21-9a0f-1c2d3e4f5a6b?model=x#top')).toBe('/c/3f2a9c1e-5b7d-4e21-9a0f-1c2d3e4f5a6b');
});

test('an address that names no chat is left to the guessed identity', () => {
  for (const href of [
    'http://127.0.0.1:8080/',
    'http://127.0.0.1:8080/#/',
    'https://chat.example/c/new',
    'https://chat.example/chat/settings',
    'https://chat.example/c/12', // too short to be an id
    'http://127.0.0.1:5001/?chat=1',
    'https://chat.example/docs/3f2a9c1e-5b7d-4e21-9a0f-1c2d3e4f5a6b',
    'not an address',
    `https://chat.example/c/${'a1'.repeat(3_000)}`,
  ]) {
    expect(chatRouteOfUrl(href), href).toBeUndefined();
  }
});

test('the bridge takes a routed chat as a conversation known by its address', () => {
  expect(pageChatOf('openai-chat', undefined, undefined, 'http://127.0.0.1:8080/#/chat/conv-1764480000123')).toEqual({ conversationId: 'url:#/chat/conv-1764480000123', basis: 'url' });
  expect(pageChatOf('openai-chat', undefined, undefined, 'http://127.0.0.1:8080/')).toBeUndefined();
});
