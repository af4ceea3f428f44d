// idb checks `instanceof IDBRequest` and friends, so the in-memory IndexedDB must be global here.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { countText } from '../count-text';
import { RetinueError } from '../errors';
import { createModelResolver } from '../model/model-resolver';
import type { ModelClientOptions } from '../model/create-model-client';
import { resolveProfiles } from '../profiles/built-in-profiles';
import type { AgentRuntime, AgentRuntimeOptions } from '../runtime/agent-runtime';
import { openRunStore } from '../store/idb-run-store';
import type { RunStore } from '../store/run-store';
import { parseRunnerArguments, RUNNER_USAGE, RunnerUsageError } from './runner-arguments';
import { addRunnerAgentFiles, loadRunnerSettings, loadRunnerSnapshot } from './runner-inputs';
import { askForPlainAnswer } from './runner-fallback';
import { collectRunnerReport, formatTaskTable } from './runner-report';
import { loadRunnerStoreFile, saveRunnerStoreFile } from './runner-store-file';
import { toTerminalText } from './terminal-text';
import { keyedConnectionIdsOf } from '../runtime/limits/spend-cap';

const RUNNER_STORE_NAME = 'retinue-runner';

/** Exit statuses of `retinue run`. */
export const RUNNER_EXIT = { completed: 0, failed: 1, badArguments: 2 } as const;

export interface HeadlessRunnerEnvironment {
  /** Arguments after the script name, e.g. `['run', '--base-url', ...]`. */
  argv: readonly string[];
  /** Reply, table or JSON document. */
  writeOut: (text: string) => void;
  /** Progress lines and errors. */
  writeError: (text: string) => void;
  /** Builds the runtime (the real `createAgentRuntime`, wired by the entry script). */
  createRuntime: (options: AgentRuntimeOptions) => AgentRuntime;
  /** Aborting cancels the run (Ctrl-C). */
  signal?: AbortSignal;
  /** The process environment (`OPENAI_API_KEY` is read from it); none when not given. */
  environmentVariables?: Readonly<Record<string, string | undefined>>;
  /** Retry timing for model calls (tests shorten it). */
  clientOptions?: Omit<ModelClientOptions, 'limiter' | 'onRetry'>;
  now?: () => number;
}

/**
 * Runs one whole agent run in Node, as `npm run retinue -- run ...` does: the `--base-url` endpoint
 * stands in for the page's model (the `host` binding), profiles come from the settings file (or the
 * built-ins), the store lives in an in-memory IndexedDB (loaded from and saved to `--store FILE` when
 * given). Resolves with the exit status: 0 when the
 * run completed or failed open (the model's plain answer, `fallback` in `--json`), 1 when it failed or was cancelled (the reason on the error stream), 2 for bad
 * arguments.
 */
export async function runHeadless(terminalEnvironment: HeadlessRunnerEnvironment): Promise<number> {
  // Model text reaches both streams (the reply, progress lines, errors): a terminal gets it without
  // control characters (in `--json` output JSON has escaped C0 already; C1 controls go there too).
  const environment: HeadlessRunnerEnvironment = {
    ...terminalEnvironment,
    writeOut: (text) => terminalEnvironment.writeOut(toTerminalText(text)),
    writeError: (text) => terminalEnvironment.writeError(toTerminalText(text)),
  };
  const now = environment.now ?? Date.now;
  const startedAt = now();
  const progress = (line: string) => environment.writeError(`[${((now() - startedAt) / 1000).toFixed(1).padStart(5)}s] ${line}\n`);

  let prepared;
  try {
    const parsed = parseRunnerArguments(environment.argv, environment.environmentVariables);
    if (parsed.kind === 'help') {
      environment.writeOut(`${RUNNER_USAGE}\n`);
      return RUNNER_EXIT.completed;
    }
    const runnerArguments = parsed.arguments;
    let settings = await loadRunnerSettings(runnerArguments.settingsFile);
    if (runnerArguments.agentsDirectory !== undefined) {
      const withAgents = await addRunnerAgentFiles(settings, runnerArguments.agentsDirectory);
      settings = withAgents.settings;
      withAgents.summary.forEach((line) => progress(line));
      withAgents.notes.forEach((note) => progress(note));
    }
    const snapshot = await loadRunnerSnapshot(runnerArguments);
    prepared = { runnerArguments, settings, snapshot };
  } catch (error) {
    if (!(error instanceof RunnerUsageError)) throw error;
    environment.writeError(`retinue: ${error.message}\n\n${RUNNER_USAGE}\n`);
    return RUNNER_EXIT.badArguments;
  }
  const { runnerArguments, settings, snapshot } = prepared;

  const indexedDB = new IDBFactory();
  try {
    if (runnerArguments.storeFile !== undefined) await loadRunnerStoreFile(runnerArguments.storeFile, indexedDB, RUNNER_STORE_NAME);
  } catch (error) {
    if (!(error instanceof RunnerUsageError)) throw error;
    environment.writeError(`retinue: ${error.message}\n`);
    return RUNNER_EXIT.badArguments;
  }

  let store: RunStore | undefined;
  try {
    store = await openRunStore({ name: RUNNER_STORE_NAME, indexedDB, now });
    const runtime = environment.createRuntime({ store, profiles: resolveProfiles(settings), defaults: settings.defaults, keyedConnectionIds: keyedConnectionIdsOf(settings), now });
    const resolveModel = createModelResolver({
      connections: settings.connections,
      host: {
        label: `page model · ${runnerArguments.model}`,
        baseURL: runnerArguments.baseURL,
        apiKey: runnerArguments.apiKey,
        model: runnerArguments.model,
        toolProtocol: runnerArguments.toolProtocol ?? 'auto',
        authAdvice: 'check the --api-key (or OPENAI_API_KEY) given to the runner',
      },
      clientOptions: {
        ...environment.clientOptions,
        onRetry: (retry) => progress(`model call failed (${retry.reason}); retry ${retry.attempt} in ${(retry.delayMs / 1000).toFixed(1)} s`),
      },
    });
    progress(`run started: ${runnerArguments.model} at ${runnerArguments.baseURL}`);
    const outcome = await runtime.startRun({
      origin: 'runner:',
      adapter: 'runner',
      snapshot,
      resolveModel,
      onProgress: progress,
      ...(runnerArguments.conversation !== undefined ? { chat: { conversationId: runnerArguments.conversation } } : {}),
      ...(runnerArguments.replyDeadlineMs !== undefined ? { replyDeadlineMs: runnerArguments.replyDeadlineMs } : {}),
      onEarlyReply: (early) => progress(countText('sidepanel_replied_helpers_working', early.stillWorking)),
      ...(environment.signal ? { signal: environment.signal } : {}),
    });
    const fallback = outcome.run.fallback;
    progress(`run ${outcome.run.status}`);
    let reply = outcome.reply;
    if (fallback) {
      // Fail open (§13): the model answers the snapshot without the retinue, as the page's own turn would.
      progress(`Retinue could not do this run (${fallback.code}): ${fallback.reason}`);
      progress('asking the model once without the retinue');
      const { baseURL, apiKey, model } = runnerArguments;
      reply = await askForPlainAnswer({ baseURL, apiKey, model, snapshot, ...(environment.signal ? { signal: environment.signal } : {}) });
    }
    const report = await collectRunnerReport(store, outcome.run, reply);
    const answered = outcome.run.status === 'completed' || fallback !== undefined;
    if (runnerArguments.json) {
      environment.writeOut(`${JSON.stringify({ ...report, ...(fallback ? { fallback } : {}) }, null, 2)}\n`);
    } else {
      if (answered) environment.writeOut(`${reply}\n\n`);
      environment.writeOut(`${formatTaskTable(report, now())}\n`);
    }
    if (answered) return RUNNER_EXIT.completed;
    const reason = outcome.run.error ? `${outcome.run.error.message} (${outcome.run.error.code})` : 'no reason was recorded';
    environment.writeError(`retinue: the run ${outcome.run.status}: ${reason}\n`);
    return RUNNER_EXIT.failed;
  } catch (error) {
    const message = error instanceof RetinueError ? `${error.message} (${error.code})` : error instanceof Error ? (error.stack ?? error.message) : String(error);
    environment.writeError(`retinue: the run could not finish: ${message}\n`);
    return RUNNER_EXIT.failed;
  } finally {
    store?.close();
    if (store && runnerArguments.storeFile !== undefined) await saveStoreOrSay(runnerArguments.storeFile, indexedDB, environment.writeError);
  }
}

/** Writes the store back for the next call; a write that fails is said, and loses only this call's records. */
async function saveStoreOrSay(path: string, indexedDB: IDBFactory, writeError: (text: string) => void): Promise<void> {
  try {
    await saveRunnerStoreFile(path, indexedDB, RUNNER_STORE_NAME);
  } catch (error) {
    writeError(`retinue: the store file '${path}' could not be written (${error instanceof Error ? error.message : String(error)}); the next call will not see this run.\n`);
  }
}
