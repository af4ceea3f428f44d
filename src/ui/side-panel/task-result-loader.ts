import { resultCapsuleSchema, type ResultCapsule } from '../../records/capsule';
import type { AgentTaskRecord } from '../../records/task';
import type { WorkspaceFile } from '../../records/workspace-file';
import type { RunStore } from '../../store/run-store';
import { capsuleToMarkdown } from './capsule-markdown';

export interface TaskArtifact {
  file: WorkspaceFile;
  /** The path as the task's agent saw it (`summaries/notes.md`), not the physical one. */
  displayPath: string;
}

export interface TaskResult {
  capsule?: ResultCapsule;
  /** The result as markdown: the task's `result.md`, else the capsule written out. */
  markdown?: string;
  artifacts: TaskArtifact[];
}

/** Reads the structured capsule at `resultRef`; undefined when absent or not a valid capsule. */
export async function readCapsule(store: RunStore, task: AgentTaskRecord): Promise<ResultCapsule | undefined> {
  if (!task.resultRef) return undefined;
  const file = await store.readFile(task.runId, task.resultRef);
  if (!file) return undefined;
  try {
    const parsed = resultCapsuleSchema.safeParse(JSON.parse(file.content));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Everything the side panel shows for a finished (or running) task: its result and its files. */
export async function loadTaskResult(store: RunStore, task: AgentTaskRecord): Promise<TaskResult> {
  const summaries = `summaries/agents/${task.workspaceKey}/`;
  const scratch = `scratch/agents/${task.workspaceKey}/`;
  const [capsule, summaryFiles, scratchFiles] = await Promise.all([
    readCapsule(store, task),
    store.listFiles(task.runId, summaries),
    store.listFiles(task.runId, scratch),
  ]);
  const resultFile = summaryFiles.find((file) => file.path === `${summaries}result.md`);
  const artifacts: TaskArtifact[] = [
    ...summaryFiles.map((file) => ({ file, displayPath: `summaries/${file.path.slice(summaries.length)}` })),
    ...scratchFiles.map((file) => ({ file, displayPath: `scratch/${file.path.slice(scratch.length)}` })),
  ];
  return { capsule, markdown: resultFile?.content ?? (capsule ? capsuleToMarkdown(capsule) : undefined), artifacts };
}
