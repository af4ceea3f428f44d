/** What `retinue run` was asked to do. */
export interface RunnerArguments {
  baseURL: string;
  apiKey: string;
  model: string;
  settingsFile?: string;
  /** A folder of Markdown agent files (`*.md`), added to the settings' profiles. */
  agentsDirectory?: string;
  /** Exactly one of `prompt` and `snapshotFile` is set. */
  prompt?: string;
  snapshotFile?: string;
  json: boolean;
  /** How the endpoint gets tools (default `auto`). */
  toolProtocol?: 'auto' | 'native' | 'prompted';
  /** The conversation the turn belongs to (`--conversation`), as a page would name it. */
  conversation?: string;
  /** `--reply-deadline-ms`: reply by then; helpers still working finish after the reply. */
  replyDeadlineMs?: number;
  /** `--store FILE`: the run store is loaded from this JSON dump at the start and written back at the end. */
  storeFile?: string;
}

export type ParsedCommandLine = { kind: 'run'; arguments: RunnerArguments } | { kind: 'help' };

/** Bad command-line arguments: the runner prints the message and the usage, and exits with 2. */
export class RunnerUsageError extends Error {
  readonly code = 'runner-usage';
  constructor(message: string) {
    super(message);
    this.name = 'RunnerUsageError';
  }
}

export const RUNNER_USAGE = `Usage: npm run retinue -- run --base-url URL [--api-key KEY] --model MODEL [--settings FILE] [--agents DIR] (--prompt TEXT | --snapshot FILE) [--conversation ID] [--reply-deadline-ms MS] [--store FILE] [--json]

Runs one whole agent run in Node: the model at --base-url stands in for the page's own model (the
root and every profile bound to "host"); other profiles use the connections of the settings file.

  --base-url URL     OpenAI-compatible endpoint, e.g. http://127.0.0.1:8080/v1
  --api-key KEY      its API key (default: the OPENAI_API_KEY environment variable, else none;
                     the variable keeps the key out of the process list)
  --model MODEL      the model id to ask for at --base-url
  --settings FILE    a settings document (docs/settings.md); default: the built-in profiles
  --agents DIR       Markdown agent files (*.md, the Claude Code sub-agent format) to add or override
  --prompt TEXT      the user's chat message
  --snapshot FILE    an OpenAI chat-completions request body (JSON) to use as the chat turn
  --conversation ID  the conversation this turn belongs to (default: a hash of the chat's opening)
  --reply-deadline-ms MS  reply after at most MS ms; helpers still working finish after the reply
  --store FILE       keep the run store in FILE (JSON) between calls: with the same --conversation, the
                     next call gets the results that came after this call's reply; default: memory only
  --json             print one JSON document (run, invocations, tasks, capsules, journal)
  --tool-protocol P  auto (default: native tools, prompted when refused), native or prompted

Exit status: 0 the run completed, 1 it failed, 2 bad arguments.`;

const VALUE_OPTIONS = { '--base-url': 'baseURL', '--api-key': 'apiKey', '--model': 'model', '--settings': 'settingsFile', '--agents': 'agentsDirectory', '--prompt': 'prompt', '--snapshot': 'snapshotFile', '--tool-protocol': 'toolProtocol', '--conversation': 'conversation', '--reply-deadline-ms': 'replyDeadlineMs', '--store': 'storeFile' } as const;
type ValueOption = keyof typeof VALUE_OPTIONS;

/**
 * Parses `run ...` arguments (after the script name). Accepts `--name value` and `--name=value`.
 * The key comes from `--api-key`, else from `OPENAI_API_KEY` in `environmentVariables`.
 * Throws RunnerUsageError naming what is wrong.
 *
 * @example
 * parseRunnerArguments(['run', '--base-url', 'http://127.0.0.1:8080/v1', '--model', 'qwen3-8b', '--prompt', 'Hi']);
 */
export function parseRunnerArguments(argv: readonly string[], environmentVariables: Readonly<Record<string, string | undefined>> = {}): ParsedCommandLine {
  if (argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') return { kind: 'help' };
  const [command, ...rest] = argv;
  if (command === undefined) throw new RunnerUsageError('No command given. The only command is `run`.');
  if (command !== 'run') throw new RunnerUsageError(`Unknown command '${command}'. The only command is \`run\`.`);

  const values: Partial<Record<(typeof VALUE_OPTIONS)[ValueOption], string>> = {};
  let json = false;
  for (let position = 0; position < rest.length; position += 1) {
    const token = rest[position] as string;
    const [name, inlineValue] = token.startsWith('--') && token.includes('=') ? splitOnce(token, '=') : [token, undefined];
    if (name === '--json') {
      if (inlineValue !== undefined) throw new RunnerUsageError('--json takes no value.');
      json = true;
      continue;
    }
    if (!(name in VALUE_OPTIONS)) {
      throw new RunnerUsageError(token.startsWith('-') ? `Unknown option '${name}'.` : `Unexpected argument '${token}' (values follow their option, e.g. --prompt "text").`);
    }
    const key = VALUE_OPTIONS[name as ValueOption];
    if (values[key] !== undefined) throw new RunnerUsageError(`${name} is given twice.`);
    const value = inlineValue ?? rest[position + 1];
    if (inlineValue === undefined) position += 1;
    if (value === undefined || (inlineValue === undefined && value.startsWith('--'))) throw new RunnerUsageError(`${name} needs a value.`);
    values[key] = value;
  }

  if (values.baseURL === undefined) throw new RunnerUsageError('--base-url is required: the OpenAI-compatible endpoint standing in for the page model.');
  if (!isHttpUrl(values.baseURL)) throw new RunnerUsageError(`--base-url '${values.baseURL}' is not an http(s) URL, e.g. http://127.0.0.1:8080/v1.`);
  if (values.model === undefined || values.model.trim() === '') throw new RunnerUsageError('--model is required: the model id to ask for at --base-url.');
  if ((values.prompt === undefined) === (values.snapshotFile === undefined)) {
    throw new RunnerUsageError('Give exactly one of --prompt TEXT and --snapshot FILE.');
  }
  if (values.prompt !== undefined && values.prompt.trim() === '') throw new RunnerUsageError('--prompt is empty.');
  const toolProtocol = values.toolProtocol;
  if (toolProtocol !== undefined && toolProtocol !== 'auto' && toolProtocol !== 'native' && toolProtocol !== 'prompted') {
    throw new RunnerUsageError(`--tool-protocol '${toolProtocol}' is not one of auto, native, prompted.`);
  }

  const conversation = values.conversation;
  if (conversation !== undefined && (conversation.trim() === '' || conversation.length > 200)) {
    throw new RunnerUsageError('--conversation needs an id of 1 to 200 characters.');
  }
  const deadlineText = values.replyDeadlineMs;
  const replyDeadlineMs = deadlineText === undefined ? undefined : Number(deadlineText);
  if (replyDeadlineMs !== undefined && (!/^\d+$/.test(deadlineText ?? '') || replyDeadlineMs > 600_000)) {
    throw new RunnerUsageError(`--reply-deadline-ms '${deadlineText}' is not a whole number of milliseconds from 0 to 600000 (0: no deadline).`);
  }

  return {
    kind: 'run',
    arguments: {
      baseURL: values.baseURL,
      apiKey: values.apiKey ?? environmentVariables.OPENAI_API_KEY ?? '',
      model: values.model,
      json,
      ...(values.settingsFile !== undefined ? { settingsFile: values.settingsFile } : {}),
      ...(values.agentsDirectory !== undefined ? { agentsDirectory: values.agentsDirectory } : {}),
      ...(values.prompt !== undefined ? { prompt: values.prompt } : {}),
      ...(values.snapshotFile !== undefined ? { snapshotFile: values.snapshotFile } : {}),
      ...(toolProtocol !== undefined ? { toolProtocol } : {}),
      ...(conversation !== undefined ? { conversation } : {}),
      ...(replyDeadlineMs ? { replyDeadlineMs } : {}),
      ...(values.storeFile !== undefined ? { storeFile: values.storeFile } : {}),
    },
  };
}

function splitOnce(text: string, separator: string): [string, string] {
  const index = text.indexOf(separator);
  return [text.slice(0, index), text.slice(index + 1)];
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
