import { expect, test } from 'vitest';
import { isProgressLine } from '../../../src/runtime/progress-lines';
import { withoutProgressInText, withoutProgressLines } from '../../../src/runtime/snapshot-without-progress';

const started = 'scene-critic · Critique the duel — started';
const done = 'scene-critic · Critique the duel — done';

test('the lines Retinue writes are recognised exactly; text that only looks alike is not', () => {
  expect([started, done, 'continuity-checker-002 · A — B — result edited by you', 'Token limit reached (1,150 of 1,000) — wrapping up', `  ${done}  `].map(isProgressLine)).toEqual([true, true, true, true, true]);
  expect(['Scene-Critic · Critique — done', 'scene-critic · — done', 'scene-critic · Critique — finished', 'scene critic · Critique — done', 'The duel is done', ''].map(isProgressLine)).toEqual([false, false, false, false, false, false]);
});

test('KoboldAI Lite keeps progress as <think> blocks in its log: a block of only progress goes, the model’s own reasoning stays', () => {
  const log = `\nYou: Hi!\nMara: <think>\n${started}\n${done}\n</think>\nHello.\nYou: Where is the lamp?\nMara: <think>\n${started}\nThe lamp is upstairs, she knows.\n</think>Upstairs.`;

  expect(withoutProgressInText(log)).toBe('\nYou: Hi!\nMara: Hello.\nYou: Where is the lamp?\nMara: <think>\nThe lamp is upstairs, she knows.\n</think>Upstairs.');
});

test('plain text progress before a reply goes; a text without any is returned as it is', () => {
  expect(withoutProgressInText(`${started}\n${done}\nThe hall is silent.`)).toBe('The hall is silent.');
  const untouched = 'The hall is silent · rain drums — done? <think>not ours</think>';
  expect(withoutProgressInText(untouched)).toBe(untouched);
});

test('only assistant messages are cleaned (reasoning fields and text parts too); the user’s own <think> text stays', () => {
  const userText = `<think>\n${done}\n</think> my notes`;
  const snapshot = {
    messages: [
      { role: 'user' as const, content: userText },
      { role: 'assistant' as const, content: [{ type: 'text', text: `${started}\nHello.` }], reasoning_content: `${started}\n${done}\n` },
      { role: 'assistant' as const, content: 'Plain.', reasoning: `${done}\nThinking.` },
    ],
  };
  const cleaned = withoutProgressLines(snapshot);

  expect(cleaned.messages[0]?.content).toBe(userText);
  expect(cleaned.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] });
  expect(cleaned.messages[2]).toEqual({ role: 'assistant', content: 'Plain.', reasoning: 'Thinking.' });
  const clean = { messages: [{ role: 'assistant' as const, content: 'Nothing of ours.' }] };
  expect(withoutProgressLines(clean)).toBe(clean);
});

test('a long log is read in linear time', () => {
  const line = `${done}\nYou: ${'a · b — '.repeat(20)}\n<think>`;
  const huge = line.repeat(20_000);
  const startedAt = performance.now();
  withoutProgressInText(huge);
  expect(performance.now() - startedAt).toBeLessThan(2_000);
});
