import { expect, test } from 'vitest';
import type { SnapshotMessage } from '../../../src/hosts/prompt-snapshot';
import { CHAT_READ_LIMITS, chatReadTool } from '../../../src/tools/chat-read';
import type { ToolContext } from '../../../src/tools/tool-definition';

const chat: SnapshotMessage[] = [
  { role: 'system', content: 'You are Mira.' },
  ...Array.from({ length: 40 }, (_, index): SnapshotMessage => ({ role: index % 2 === 0 ? 'user' : 'assistant', content: `Message ${index + 2} about ${index === 20 ? 'the silver key' : 'the road'}.` })),
];

async function read(args: Record<string, unknown>, messages: readonly SnapshotMessage[] = chat): Promise<string> {
  const context = { chat: messages } as unknown as ToolContext;
  return (await chatReadTool.execute(chatReadTool.parameters.parse(args), context)).content;
}

test('with no arguments: how long the conversation is and the latest messages, shortened', async () => {
  const actual = await read({});

  expect(actual.startsWith('The conversation has 41 messages (#1–#41). The last 10, shortened:')).toBe(true);
  expect(actual).toContain('#41 assistant: Message 41 about the road.');
  expect(actual).not.toContain('#31 ');
});

test('from and count read whole messages by number', async () => {
  const actual = await read({ from: 1, count: 2 });

  expect(actual).toBe('### #1 system\nYou are Mira.\n\n### #2 user\nMessage 2 about the road.');
});

test('a count alone reads the latest messages; reading past the end says how many there are', async () => {
  expect(await read({ count: 1 })).toBe('### #41 assistant\nMessage 41 about the road.');
  expect(await read({ from: 99 })).toBe('There is no message #99: the conversation has 41 messages (#1–#41).');
});

test('query finds the messages that mention something, case aside', async () => {
  const actual = await read({ query: 'SILVER key' });

  expect(actual).toContain('1 message contains "SILVER key":\n- #22 user: Message 22 about the silver key.');
  expect(await read({ query: 'dragon' })).toBe('No message contains "dragon".');
});

test('caps per call: count at most the limit, each message and the whole answer cut', async () => {
  expect(chatReadTool.parameters.safeParse({ count: CHAT_READ_LIMITS.maxCount + 1 }).success).toBe(false);
  const long: SnapshotMessage[] = Array.from({ length: 30 }, () => ({ role: 'user', content: 'x'.repeat(10_000) }));

  const actual = await read({ from: 1, count: 30 }, long);

  expect(actual.length).toBeLessThanOrEqual(CHAT_READ_LIMITS.maxAnswerChars);
  expect(actual).toContain('… (message cut)');
  expect(actual.endsWith('… (answer cut; ask for fewer messages)')).toBe(true);
});
