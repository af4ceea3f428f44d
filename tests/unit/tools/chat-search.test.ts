import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { SnapshotMessage } from '../../../src/hosts/prompt-snapshot';
import { dispatchToolCall } from '../../../src/tools/tool-dispatcher';
import { CHAT_SEARCH_LIMITS, chatSearchTool } from '../../../src/tools/chat-search';
import type { ToolContext, ToolOutcome } from '../../../src/tools/tool-definition';

const chat: SnapshotMessage[] = [
  { role: 'system', content: 'You are Mira, a ferry pilot.' },
  { role: 'user', content: 'Mira finds a silver key under the dock.' },
  { role: 'assistant', name: 'Mira', content: 'She pockets the key. "Silver," she says.' },
  { role: 'tool', content: 'a page tool result about the silver key' },
  { role: 'user', content: 'They row to the island at dusk.' },
  { role: 'assistant', name: 'Mira', content: 'At dusk Mira unlocks the lighthouse with the SILVER key.' },
];

function contextWith(messages: readonly SnapshotMessage[]): ToolContext {
  return { chat: messages } as unknown as ToolContext;
}

async function search(args: Record<string, unknown>, messages: readonly SnapshotMessage[] = chat): Promise<ToolOutcome> {
  return chatSearchTool.execute(chatSearchTool.parameters.parse(args), contextWith(messages));
}

test('lists the messages that hold every word, newest first, by number with an excerpt', async () => {
  const actual = await search({ query: 'silver KEY' });

  expect(actual.content).toBe(
    [
      '3 messages hold "silver", "key", newest first:',
      '- #6 assistant (Mira): At dusk Mira unlocks the lighthouse with the SILVER key.',
      '- #3 assistant (Mira): She pockets the key. "Silver," she says.',
      '- #2 user: Mira finds a silver key under the dock.',
      '',
      'The chat has 6 messages (#1–#6). Read a whole message with chat_read_messages (from: its number).',
    ].join('\n'),
  );
  expect(actual.lookup).toEqual({ type: 'chat-searched', data: { query: 'silver KEY', found: 3, messages: [6, 3, 2] } });
});

test('role, from and to narrow the search; a tool result of the page is never a match', async () => {
  expect((await search({ query: 'key', role: 'user' })).content).toContain('1 message holds "key"');
  expect((await search({ query: 'key', from: 3, to: 5 })).content).toContain('- #3 assistant (Mira)');
  expect((await search({ query: 'key', from: 3, to: 5 })).content).not.toContain('#4');
  expect((await search({ query: 'ferry' })).content).toContain('- #1 system: You are Mira, a ferry pilot.');
});

test('no match says so with the chat length and what to try; the lookup is still recorded', async () => {
  const actual = await search({ query: 'dragon', role: 'assistant', from: 2 });

  expect(actual.content).toBe('No assistant messages from #2 hold "dragon". The chat has 6 messages (#1–#6). Try fewer or other words.');
  expect(actual.lookup?.data).toMatchObject({ query: 'dragon', role: 'assistant', from: 2, found: 0, messages: [] });
});

test('a long message gives an excerpt around the first hit, cut on both sides', async () => {
  const long: SnapshotMessage[] = [{ role: 'user', content: `${'a'.repeat(1_000)} the lantern ${'b'.repeat(1_000)}` }];

  const line = (await search({ query: 'lantern' }, long)).content.split('\n')[1] as string;

  expect(line.startsWith('- #1 user: …')).toBe(true);
  expect(line.endsWith('…')).toBe(true);
  expect(line).toContain(' the lantern ');
  expect(line.length).toBeLessThan(2 * CHAT_SEARCH_LIMITS.excerptRadius + 40);
});

test('more matches than the limit: the newest are listed and the answer says how to reach the older ones', async () => {
  const many: SnapshotMessage[] = Array.from({ length: 60 }, (_, index) => ({ role: 'user', content: `Line ${index + 1} about the tide.` }));

  const actual = await search({ query: 'tide', limit: 3 }, many);

  expect(actual.content).toContain('60 messages hold "tide", newest first:\n- #60 user: Line 60 about the tide.\n- #59');
  expect(actual.content).toContain('(57 older matches not listed: search again with `to` 57, or with narrower words.)');
  expect(actual.lookup?.data).toMatchObject({ found: 60, messages: [60, 59, 58] });
});

test('caps: query length and limit are bounded by the schema; a blank query or a reversed range is refused with the fix', async () => {
  expect(chatSearchTool.parameters.safeParse({ query: 'x'.repeat(CHAT_SEARCH_LIMITS.maxQueryChars + 1) }).success).toBe(false);
  expect(chatSearchTool.parameters.safeParse({ query: 'x', limit: CHAT_SEARCH_LIMITS.maxLimit + 1 }).success).toBe(false);
  expect(chatSearchTool.parameters.safeParse({ query: 'x', extra: 1 }).success).toBe(false);
  await expect(search({ query: '   ' })).rejects.toThrow('The query has no words. Call chat_search with the words to find.');
  await expect(search({ query: 'key', from: 5, to: 2 })).rejects.toThrow('`from` (#5) comes after `to` (#2).');
});

test('through the dispatcher, a model that calls chat_search with bad arguments reads the fix as its tool result', async () => {
  const actual = await dispatchToolCall({
    call: { id: 'call_1', name: 'chat_search', arguments: '{"query":"key","limit":0}' },
    surface: ['chat.search'],
    context: { ...contextWith(chat), signal: new AbortController().signal },
  });

  expect(actual.toolName).toBe('chat.search');
  expect(actual.content).toContain('The arguments of chat_search did not match its parameters: limit:');
  expect(actual.lookup).toBeUndefined();
});

test('an answer over the largest chat a page may send stays within its cap', async () => {
  const huge: SnapshotMessage[] = Array.from({ length: 2_000 }, (_, index) => ({ role: 'user', content: `${'a '.repeat(1_000)}needle ${index}` }));

  const actual = await search({ query: 'a a a a a a a a needle', limit: CHAT_SEARCH_LIMITS.maxLimit }, huge);

  expect(actual.content.length).toBeLessThanOrEqual(CHAT_SEARCH_LIMITS.maxAnswerChars);
  expect(actual.lookup?.data).toMatchObject({ found: 2_000 });
});

test('property: the matches are exactly the messages in scope that hold every word, newest first', async () => {
  const word = fc.constantFrom('key', 'Key', 'dock', 'tide', 'mira', 'silver', 'the');
  const message = fc.record({
    role: fc.constantFrom<SnapshotMessage['role']>('user', 'assistant', 'system', 'tool'),
    content: fc.array(word, { maxLength: 6 }).map((words) => words.join(' ')),
  });
  await fc.assert(
    fc.asyncProperty(fc.array(message, { maxLength: 30 }), fc.array(word, { minLength: 1, maxLength: 3 }), async (messages, words) => {
      const query = words.join(' ');
      const terms = words.map((each) => each.toLowerCase());
      const expected = messages
        .map((each, index) => ({ number: index + 1, each }))
        .filter(({ each }) => each.role !== 'tool' && terms.every((term) => (each.content as string).toLowerCase().includes(term)))
        .map(({ number }) => number)
        .reverse();

      const actual = await search({ query, limit: CHAT_SEARCH_LIMITS.maxLimit }, messages);

      expect(actual.lookup?.data).toMatchObject({ found: expected.length, messages: expected.slice(0, CHAT_SEARCH_LIMITS.maxLimit) });
    }),
  );
});
