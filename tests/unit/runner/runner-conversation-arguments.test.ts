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

test('--store names the file the run store is kept in between calls; without it there is none', () => {
  const actual = parseRunnerArguments([...base, '--conversation', 'duel-chat', '--store', 'duel-store.json']);
  expect(actual.kind === 'run' && actual.arguments.storeFile).toBe('duel-store.json');
  const memoryOnly = parseRunnerArguments(base);
  expect(memoryOnly.kind === 'run' && memoryOnly.arguments.storeFile).toBeUndefined();
  expect(() => parseRunnerArguments([...base, '--store'])).toThrow(/--store needs a value/);
});

test('the key comes from --api-key, else from OPENAI_API_KEY (out of the process list), else none', () => {
  const fromEnvironment = parseRunnerArguments(base, { OPENAI_API_KEY: 'sk-from-environment' });
  const fromArgument = parseRunnerArguments([...base, '--api-key', 'sk-from-argument'], { OPENAI_API_KEY: 'sk-from-environment' });
  const none = parseRunnerArguments(base, {});

  expect([fromEnvironment, fromArgument, none].map((parsed) => (parsed.kind === 'run' ? parsed.arguments.apiKey : undefined))).toEqual([
    'sk-from-environment',
    'sk-from-argument',
    '',
  ]);
});
