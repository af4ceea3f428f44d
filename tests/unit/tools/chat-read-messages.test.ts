import { expect, test } from 'vitest';
import type { SnapshotMessage } from '../../../src/hosts/prompt-snapshot';
import { CHAT_READ_MESSAGES_LIMITS, chatReadMessagesTool } from '../../../src/tools/chat-read-messages';
import type { ToolContext, ToolOutcome } from '../../../src/tools/tool-definition';

const chat: SnapshotMessage[] = [
  { role: 'system', content: 'You are Mira.' },
  { role: 'user', content: 'Hello.' },
  { role: 'assistant', name: 'Mira', content: 'Hi there.' },
  { role: 'tool', content: 'a page tool result' },
  { role: 'user', content: 'Where is the key?' },
];

async function read(args: Record<string, unknown>, messages: readonly SnapshotMessage[] = chat): Promise<ToolOutcome> {
  return chatReadMessagesTool.execute(chatReadMessagesTool.parameters.parse(args), { chat: messages } as unknown as ToolContext);
}

test('reads whole messages by number, from..to, and records which it read', async () => {
  const actual = await read({ from: 2, to: 3 });

  expect(actual.content).toBe('### #2 user\nHello.\n\n### #3 assistant (Mira)\nHi there.\n\nThe chat has 5 messages (#1–#5).');
  expect(actual.lookup).toEqual({ type: 'chat-messages-read', data: { from: 2, to: 3, messages: [2, 3] } });
});

test('without `to` it reads to the end; a page tool result keeps its number but is not shown', async () => {
  const actual = await read({ from: 3 });

  expect(actual.content).toBe('### #3 assistant (Mira)\nHi there.\n\n### #5 user\nWhere is the key?\n\nThe chat has 5 messages (#1–#5).');
  expect(actual.lookup?.data).toEqual({ from: 3, to: 5, messages: [3, 5] });
});

test('messages past the budget are left out, and the note says which and where to read on', async () => {
  const long: SnapshotMessage[] = Array.from({ length: 6 }, (_, index) => ({ role: 'user', content: `${index + 1}`.repeat(300) }));

  const actual = await read({ from: 1, maxChars: 700 }, long);

  expect(actual.content).toContain('### #2 user');
  expect(actual.content).not.toContain('### #3 user');
  expect(actual.content).toContain('(Not shown: #3–#6 were past the budget. Read on with from: 3.)');
  expect(actual.lookup?.data).toEqual({ from: 1, to: 2, messages: [1, 2], cut: true });
});

test('a first message over the budget is shown in part, with how much of it and how to see more', async () => {
  const long: SnapshotMessage[] = [{ role: 'user', content: 'x'.repeat(20_000) }, { role: 'assistant', content: 'short' }];

  const actual = await read({ from: 1, maxChars: 1_000 }, long);

  expect(actual.content.length).toBeLessThan(1_000 + 300);
  expect(actual.content).toContain('Cut: #1 is shown up to character 988 of 20000. Ask again with a larger maxChars (at most 16000) to see more of it.');
  expect(actual.content).toContain('Not shown: #2 was past the budget. Read on with from: 2.');
});

test('never more than the message cap in one answer, whatever the budget', async () => {
  const many: SnapshotMessage[] = Array.from({ length: 80 }, (_, index) => ({ role: 'user', content: `m${index + 1}` }));

  const actual = await read({ from: 1, to: 80, maxChars: CHAT_READ_MESSAGES_LIMITS.maxMaxChars }, many);

  expect(actual.lookup?.data.messages).toHaveLength(CHAT_READ_MESSAGES_LIMITS.maxMessages);
  expect(actual.content).toContain(`Read on with from: ${CHAT_READ_MESSAGES_LIMITS.maxMessages + 1}.`);
});

test('refusals name the fix: past the end, a reversed range, only tool results; the schema bounds the budget', async () => {
  await expect(read({ from: 9 })).rejects.toThrow('There is no message #9. The chat has 5 messages (#1–#5).');
  await expect(read({ from: 3, to: 2 })).rejects.toThrow('`to` (#2) comes before `from` (#3). Give to ≥ from, or leave it out.');
  await expect(read({ from: 4, to: 4 })).rejects.toThrow('Messages #4–#4 are not chat messages');
  expect(chatReadMessagesTool.parameters.safeParse({ from: 1, maxChars: CHAT_READ_MESSAGES_LIMITS.maxMaxChars + 1 }).success).toBe(false);
  expect(chatReadMessagesTool.parameters.safeParse({ from: 0 }).success).toBe(false);
  expect(chatReadMessagesTool.parameters.safeParse({}).success).toBe(false);
});
