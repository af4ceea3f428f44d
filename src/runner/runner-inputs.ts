import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promptSnapshotSchema, SNAPSHOT_LIMITS, type PromptSnapshot } from '../hosts/prompt-snapshot';
import { describePreviewEntry, previewAgentFiles } from '../settings/agent-file-preview';
import { importAgentFiles } from '../settings/agent-markdown';
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
 * The settings with the agent files of `--agents` put in (each replaces the profile of its id or is
 * added). Any file that does not import stops the runner, naming the file and line. Returned for the
 * progress stream: a summary of what each file does (the options page's preview: id, the profile it
 * replaces, the writer said plainly, model, connection by label, budgets) and notes (tool names
 * Retinue lacks).
 */
export async function addRunnerAgentFiles(settings: Settings, directory: string): Promise<{ settings: Settings; summary: string[]; notes: string[] }> {
  let names: string[];
  try {
    names = (await readdir(directory)).filter((name) => /\.(md|markdown)$/i.test(name)).sort();
  } catch (error) {
    throw new RunnerUsageError(`Cannot read the agents folder '${directory}' (${(error as { code?: string }).code ?? String(error)}).`);
  }
  if (names.length === 0) throw new RunnerUsageError(`The agents folder '${directory}' has no .md agent files.`);
  const files = await Promise.all(names.map(async (name) => ({ name, text: await readUserFile(path.join(directory, name), 'agent') })));
  const result = importAgentFiles(files, settings);
  if (result.errors.length > 0) {
    throw new RunnerUsageError(`Some agent files in '${directory}' are not valid:\n${describeSettingsIssues(result.errors)}`);
  }
  const preview = previewAgentFiles(result.imported, settings);
  const summary = [`agent files in '${directory}':`, ...preview.entries.map(describePreviewEntry)];
  return { settings: result.settings, summary, notes: result.notes };
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
