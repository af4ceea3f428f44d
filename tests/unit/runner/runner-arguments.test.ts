import { describe, expect, test } from 'vitest';
import { parseRunnerArguments, RunnerUsageError } from '../../../src/runner/runner-arguments';

const base = ['run', '--base-url', 'http://127.0.0.1:8080/v1', '--model', 'qwen3-8b'];

function usageErrorOf(argv: string[]): string {
  try {
    parseRunnerArguments(argv);
  } catch (error) {
    if (error instanceof RunnerUsageError) return error.message;
    throw error;
  }
  throw new Error(`expected ${argv.join(' ')} to be refused`);
}

describe('runner arguments', () => {
  test('a full command line, with --name=value too', () => {
    const actual = parseRunnerArguments([...base, '--api-key=sk-1', '--settings', 'settings.json', '--prompt', 'Hello there', '--json']);

    expect(actual).toEqual({
      kind: 'run',
      arguments: {
        baseURL: 'http://127.0.0.1:8080/v1',
        apiKey: 'sk-1',
        model: 'qwen3-8b',
        settingsFile: 'settings.json',
        prompt: 'Hello there',
        json: true,
      },
    });
    expect(parseRunnerArguments([...base, '--snapshot', 'turn.json'])).toMatchObject({ arguments: { snapshotFile: 'turn.json', apiKey: '', json: false } });
    expect(parseRunnerArguments(['--help'])).toEqual({ kind: 'help' });
  });

  test('each mistake is named', () => {
    expect(usageErrorOf([])).toContain('No command given');
    expect(usageErrorOf(['start'])).toContain("Unknown command 'start'");
    expect(usageErrorOf(['run', '--model', 'm', '--prompt', 'x'])).toContain('--base-url is required');
    expect(usageErrorOf(['run', '--base-url', 'ftp://host', '--model', 'm', '--prompt', 'x'])).toContain('is not an http(s) URL');
    expect(usageErrorOf([...base])).toContain('exactly one of --prompt TEXT and --snapshot FILE');
    expect(usageErrorOf([...base, '--prompt', 'x', '--snapshot', 'y'])).toContain('exactly one of --prompt TEXT and --snapshot FILE');
    expect(usageErrorOf([...base, '--prompt'])).toContain('--prompt needs a value');
    expect(usageErrorOf([...base, '--prompt', 'x', '--temperature', '1'])).toContain("Unknown option '--temperature'");
    expect(usageErrorOf([...base, '--prompt', 'x', 'stray'])).toContain("Unexpected argument 'stray'");
    expect(usageErrorOf([...base, '--model', 'again', '--prompt', 'x'])).toContain('--model is given twice');
  });
});
