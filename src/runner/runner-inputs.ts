import { readFile } from 'node:fs/promises';
import { promptSnapshotSchema, SNAPSHOT_LIMITS, type PromptSnapshot } from '../hosts/prompt-snapshot';
import { importSettings } from '../settings/import-export';
import { settingsSchema, SETTINGS_VERSION, type Settings } from '../settings/schema';
import { describeSettingsIssues } from '../settings/settings-errors';
import { RunnerUsageError, type RunnerArguments } from './runner-arguments';

/** Reads a file the user named; a missing or unreadable file is a usage error. */
async function readUserFile(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const reason = (error as { code?: string }).code ?? String(error);
    throw new RunnerUsageError(`Cannot read the ${what} file '${path}' (${reason}).`);
  }
}

/** The settings document of `--settings`, validated as an import would; the defaults without one. */
export async function loadRunnerSettings(settingsFile: string | undefined): Promise<Settings> {
  if (settingsFile === undefined) return settingsSchema.parse({ version: SETTINGS_VERSION });
  const result = importSettings(await readUserFile(settingsFile, 'settings'));
  if (!result.ok) {
    throw new RunnerUsageError(`The settings file '${settingsFile}' is not a valid settings document:\n${describeSettingsIssues(result.errors)}`);
  }
  return result.settings;
}

/**
 * The chat turn to run: the `--snapshot` request body, validated and size-capped like a page's, or a
 * one-message conversation made of `--prompt`.
 */
export async function loadRunnerSnapshot(runnerArguments: RunnerArguments): Promise<PromptSnapshot> {
  if (runnerArguments.prompt !== undefined) {
    return { model: runnerArguments.model, messages: [{ role: 'user', content: runnerArguments.prompt }] };
  }
  const path = runnerArguments.snapshotFile as string;
  const text = await readUserFile(path, 'snapshot');
  if (text.length > SNAPSHOT_LIMITS.maxChars) {
    throw new RunnerUsageError(`The snapshot file '${path}' has ${text.length} characters; at most ${SNAPSHOT_LIMITS.maxChars} are accepted.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new RunnerUsageError(`The snapshot file '${path}' is not JSON (${error instanceof Error ? error.message : String(error)}).`);
  }
  const result = promptSnapshotSchema.safeParse(value);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `- ${issue.path.join('.') || '(document)'}: ${issue.message}`).join('\n');
    throw new RunnerUsageError(
      `The snapshot file '${path}' is not an OpenAI chat-completions request body with \`messages\`:\n${problems}`,
    );
  }
  return result.data;
}
