import fc from 'fast-check';
import { expect, test } from 'vitest';
import { sameJson, snapshotMessagesOf, snapshotReferences } from '../../../src/store/history-records';

const message = fc.record(
  {
    role: fc.constantFrom('system', 'user', 'assistant'),
    content: fc.oneof(fc.string({ maxLength: 12 }), fc.array(fc.record({ type: fc.constant('text'), text: fc.string({ maxLength: 6 }) }), { maxLength: 2 })),
    name: fc.string({ maxLength: 3 }),
  },
  { requiredKeys: ['role', 'content'] },
);

/** A root's opening as root-context.ts and earlier-results.ts build it: the chat, its first message changed or one put before it. */
const rootOpening = (chat: readonly object[], change: 'none' | 'first' | 'before', extra: readonly object[]): object[] => {
  const copies = chat.map((entry) => ({ ...entry }));
  const opening = change === 'before' ? [{ role: 'system', content: 'Delegate when useful.' }, ...copies] : change === 'first' && copies[0] ? [{ ...copies[0], content: 'Changed.' }, ...copies.slice(1)] : copies;
  return [...opening, ...extra];
};

test('a reference always names a snapshot message equal to the history message, as JSON', () => {
  fc.assert(
    fc.property(fc.array(message, { maxLength: 12 }), fc.array(message, { maxLength: 12 }), fc.nat(4), (history, snapshot, from) => {
      const references = snapshotReferences(history, from, snapshot);
      expect(references).toHaveLength(Math.max(0, history.length - from));
      references.forEach((position, offset) => {
        if (position !== undefined) expect(JSON.stringify(snapshot[position])).toBe(JSON.stringify(history[from + offset]));
      });
    }),
  );
});

test("a root's opening refers to every chat message it kept as it was, however it changed the first", () => {
  fc.assert(
    fc.property(fc.array(message, { minLength: 1, maxLength: 12 }), fc.constantFrom('none', 'first', 'before'), fc.array(message, { maxLength: 3 }), (chat, change, extra) => {
      const snapshot = snapshotMessagesOf({ content: JSON.stringify({ messages: chat }) });
      const history = rootOpening(chat, change, extra);
      const references = snapshotReferences(history, 0, snapshot);
      const kept = change === 'first' ? chat.length - 1 : chat.length;
      expect(references.filter((position) => position !== undefined).length).toBeGreaterThanOrEqual(kept);
    }),
  );
});

test('JSON equality: key order does not matter, an undefined property is an absent one, types must match', () => {
  expect(sameJson({ role: 'user', content: 'a' }, { content: 'a', role: 'user' })).toBe(true);
  expect(sameJson({ role: 'user', name: undefined }, { role: 'user' })).toBe(true);
  expect(sameJson({ content: ['a'] }, { content: { 0: 'a' } })).toBe(false);
  expect(sameJson({ content: '1' }, { content: 1 })).toBe(false);
  expect(sameJson({ content: null }, { content: 'null' })).toBe(false);
  expect(sameJson([{ type: 'text', text: 'a' }], [{ type: 'text', text: 'b' }])).toBe(false);
});

test('a snapshot read twice is parsed once, and text that is not a snapshot has no messages', () => {
  const content = JSON.stringify({ messages: [{ role: 'user', content: 'Hi.' }] });
  expect(snapshotMessagesOf({ content })).toBe(snapshotMessagesOf({ content }));
  expect(snapshotMessagesOf({ content: '{"messages": 3}' })).toBeUndefined();
  expect(snapshotMessagesOf({ content: 'not json' })).toBeUndefined();
  expect(snapshotMessagesOf(undefined)).toBeUndefined();
});
