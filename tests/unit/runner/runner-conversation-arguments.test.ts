import { expect, test } from 'vitest';
import { parseRunnerArguments, RunnerUsageError } from '../../../src/runner/runner-arguments';

const base = ['run', '--base-url', 'http://127.0.0.1:8080/v1', '--model', 'qwen3-8b', '--prompt', 'Hi'];

test('--conversation and --reply-deadline-ms reach the run; 0 means no deadline', () => {
  const actual = parseRunnerArguments([...base, '--conversation', 'duel-chat', '--reply-deadline-ms=20000']);
  expect(actual.kind === 'run' && actual.arguments).toMatchObject({ conversation: 'duel-chat', replyDeadlineMs: 20_000 });
  const off = parseRunnerArguments([...base, '--reply-deadline-ms', '0']);
  expect(off.kind === 'run' && off.arguments.replyDeadlineMs).toBeUndefined();
});

test('a deadline that is not whole milliseconds up to 600000, or an empty conversation, is refused with the fix', () => {
  for (const bad of ['soon', '1.5', '-1', '700000']) {
    expect(() => parseRunnerArguments([...base, '--reply-deadline-ms', bad])).toThrow(RunnerUsageError);
  }
  expect(() => parseRunnerArguments([...base, '--reply-deadline-ms', 'soon'])).toThrow(/whole number of milliseconds from 0 to 600000/);
  expect(() => parseRunnerArguments([...base, '--conversation', ' '])).toThrow(/--conversation needs an id/);
});
