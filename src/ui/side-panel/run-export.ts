import type { RunStore } from '../../store/run-store';
import { capsuleToMarkdown } from './capsule-markdown';
import { readCapsule } from './task-result-loader';

/** Version of the run export document; history: 1 — first version. */
export const RUN_EXPORT_VERSION = 1;

/** Everything stored about one run, for a JSON export: run, invocations, tasks, capsules, journal. */
export async function buildRunExport(store: RunStore, runId: string) {
  const [run, invocations, tasks, journal] = await Promise.all([
    store.getRun(runId),
    store.listInvocations(runId),
    store.listTasks(runId),
    store.readJournal(runId),
  ]);
  const capsules = (await Promise.all(tasks.map((task) => readCapsule(store, task)))).filter((capsule) => capsule !== undefined);
  return { format: 'retinue-run', version: RUN_EXPORT_VERSION, run, invocations, tasks, capsules, journal };
}

/** The run's result capsules as one Markdown document, in delegation order. */
export async function buildCapsulesMarkdown(store: RunStore, runId: string): Promise<string> {
  const [run, tasks] = await Promise.all([store.getRun(runId), store.listTasks(runId)]);
  const parts = [`# ${run?.title ?? runId}\n`];
  for (const task of tasks) {
    const capsule = await readCapsule(store, task);
    parts.push(capsule ? capsuleToMarkdown(capsule) : `## ${task.task.title} — ${task.workspaceKey} (${task.status})\n\n_No result._\n`);
  }
  return parts.join('\n');
}

/** Offers `content` to the user as a file download. */
export function downloadText(fileName: string, content: string, type: string): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Downloads the run as `retinue-run-<id>.json`. */
export async function exportRunJson(store: RunStore, runId: string): Promise<void> {
  const document = await buildRunExport(store, runId);
  downloadText(`retinue-run-${runId}.json`, JSON.stringify(document, null, 2), 'application/json');
}

/** Downloads the run's capsules as `retinue-run-<id>.md`. */
export async function exportRunMarkdown(store: RunStore, runId: string): Promise<void> {
  downloadText(`retinue-run-${runId}.md`, await buildCapsulesMarkdown(store, runId), 'text/markdown');
}
