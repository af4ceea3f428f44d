import { expect, test } from 'vitest';
import { lineDiff } from '../../../src/ui/side-panel/lore-diff';

test('a line diff keeps the shared start and end and shows the changed middle as removed, then added', () => {
  expect(lineDiff('a\nb\nc\nd', 'a\nB\nc2\nd')).toEqual([
    { kind: 'same', text: 'a' },
    { kind: 'removed', text: 'b' },
    { kind: 'removed', text: 'c' },
    { kind: 'added', text: 'B' },
    { kind: 'added', text: 'c2' },
    { kind: 'same', text: 'd' },
  ]);
});

test('a new entry is all added; an unchanged text is all kept; repeated lines do not overlap', () => {
  expect(lineDiff('', 'x\ny')).toEqual([{ kind: 'added', text: 'x' }, { kind: 'added', text: 'y' }]);
  expect(lineDiff('x', 'x')).toEqual([{ kind: 'same', text: 'x' }]);
  expect(lineDiff('a\na', 'a')).toEqual([{ kind: 'same', text: 'a' }, { kind: 'removed', text: 'a' }]);
});
