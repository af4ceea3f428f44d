import { describe, expect, test } from 'vitest';
import { toTerminalText } from '../../../src/runner/terminal-text';

describe('model text written to a terminal', () => {
  test('escape sequences lose their ESC and CSI; other C0, DEL and C1 controls go; tab and newline stay', () => {
    const hostile = 'Reply\u001b]0;owned\u0007 \u001b[2J\u001b[1;1Hclean\r\u0008\u007f\u009b31m\tend\n';

    const actual = toTerminalText(hostile);

    expect(actual).toBe('Reply]0;owned [2J[1;1Hclean31m\tend\n');
  });

  test('text without controls comes back as it is, Chinese and emoji included', () => {
    const text = '她看着他的手臂。 🗡️ The duke yields.\n';
    expect(toTerminalText(text)).toBe(text);
  });

  test('a long run of controls is read in one pass', () => {
    const text = `a${'\u001b'.repeat(200_000)}b`;
    expect(toTerminalText(text)).toBe('ab');
  });
});
