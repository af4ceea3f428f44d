import { describe, expect, test } from 'vitest';
import { ConfigurationError } from '../../../src/errors';
import { chooseHostAdapter } from '../../../src/hosts/host-adapters';
import { SNAPSHOT_LIMITS } from '../../../src/hosts/prompt-snapshot';
import { readPromptSnapshot } from '../../../src/hosts/read-snapshot';
import { sillyTavernAdapter } from '../../../src/hosts/sillytavern/sillytavern-adapter';
import { openAiChatAdapter } from '../../../src/hosts/openai-chat/openai-chat-adapter';

const messages = [
  { role: 'system', content: 'You are Seraphina.' },
  { role: 'user', content: 'Hello' },
];

describe('prompt snapshots', () => {
  test('keeps messages, sampling and host fields; drops the page tools and credentials', () => {
    const body = {
      messages,
      model: 'qwen3-8b',
      stream: true,
      temperature: 0.7,
      chat_completion_source: 'custom',
      custom_url: 'http://127.0.0.1:5001/v1',
      tools: [{ type: 'function', function: { name: 'roll_dice' } }],
      tool_choice: 'auto',
      proxy_password: 'secret',
      custom_include_headers: 'Authorization: Bearer x',
    };
    const actual = readPromptSnapshot(body);
    expect(actual).toEqual({
      messages,
      model: 'qwen3-8b',
      stream: true,
      temperature: 0.7,
      chat_completion_source: 'custom',
      custom_url: 'http://127.0.0.1:5001/v1',
    });
  });

  test('refuses a body that is not a chat request, naming the field', () => {
    expect(() => readPromptSnapshot({ messages: [] })).toThrow(/messages/);
    expect(() => readPromptSnapshot({ messages: [{ role: 'wizard', content: 'x' }] })).toThrow(ConfigurationError);
    expect(() => readPromptSnapshot('hello')).toThrow(/OpenAI chat-completions body/);
  });

  test('refuses too many messages and too many characters', () => {
    const many = Array.from({ length: SNAPSHOT_LIMITS.maxMessages + 1 }, () => ({ role: 'user', content: 'x' }));
    expect(() => readPromptSnapshot({ messages: many })).toThrow(ConfigurationError);
    const huge = [{ role: 'user', content: 'x'.repeat(SNAPSHOT_LIMITS.maxChars) }];
    expect(() => readPromptSnapshot({ messages: huge })).toThrow(/at most 4000000/);
  });
});

describe('SillyTavern adapter', () => {
  test.each(['openai', 'custom', 'openrouter', 'mistralai', 'groq', 'deepseek', 'xai'])('source %s becomes a run', (source) => {
    const actual = sillyTavernAdapter.readRequest({ type: 'normal', messages, stream: false, chat_completion_source: source });
    expect(actual.kind).toBe('run');
  });

  test.each(['claude', 'makersuite', 'vertexai'])('source %s, which Retinue speaks in its own shapes, becomes a run', (source) => {
    const actual = sillyTavernAdapter.readRequest({ type: 'normal', messages, stream: true, chat_completion_source: source });
    expect(actual.kind === 'run' && actual.stream).toBe(true);
  });

  test.each(['cohere', 'ai21'])('source %s passes through with a notice', (source) => {
    const actual = sillyTavernAdapter.readRequest({ type: 'normal', messages, chat_completion_source: source });
    expect(actual).toEqual({
      kind: 'pass-through',
      notice: { code: 'unsupported-source', messageKey: 'page_notice_unsupported_source', substitutions: [source] },
    });
  });

  test('the stream flag is what the page asked for', () => {
    const streamed = sillyTavernAdapter.readRequest({ type: 'normal', messages, stream: true, chat_completion_source: 'custom' });
    const plain = openAiChatAdapter.readRequest({ messages });
    expect(streamed.kind === 'run' && streamed.stream).toBe(true);
    expect(plain.kind === 'run' && plain.stream).toBe(false);
  });
});

describe('adapter choice', () => {
  test('auto takes the detected adapter; a forced adapter takes only its own requests', () => {
    expect(chooseHostAdapter('auto', 'sillytavern')?.id).toBe('sillytavern');
    expect(chooseHostAdapter('auto', 'openai-chat')?.id).toBe('openai-chat');
    expect(chooseHostAdapter('openai-chat', 'openai-chat')?.id).toBe('openai-chat');
    expect(chooseHostAdapter('openai-chat', 'sillytavern')).toBeUndefined();
    expect(chooseHostAdapter('sillytavern', 'openai-chat')).toBeUndefined();
  });
});
