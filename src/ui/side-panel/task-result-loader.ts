import { readStoredCapsule, type ResultCapsule } from '../../records/capsule';
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
  /** What the task's model thought apart from its answers (reasoning fields, `<think>`), per call. */
  reasoning: string[];
}

/** The reasoning the journal kept of one invocation's model calls, in call order. */
async function readReasoning(store: RunStore, task: AgentTaskRecord): Promise<string[]> {
  const journal = await store.readJournal(task.runId);
  return journal.flatMap((event) => {
    if (event.type !== 'model-call-end' || event.invocationId !== task.childInvocationId) return [];
    const reasoning = event.data.reasoning?.trim() ?? '';
    return reasoning === '' ? [] : [reasoning];
  });
}

/** Reads the structured capsule at `resultRef`; undefined when absent or not a valid capsule. */
export async function readCapsule(store: RunStore, task: AgentTaskRecord): Promise<ResultCapsule | undefined> {
  if (!task.resultRef) return undefined;
  const file = await store.readFile(task.runId, task.resultRef);
  if (!file) return undefined;
  const reading = readStoredCapsule(file.content);
  return reading.ok ? reading.capsule : undefined;
}

/** Everything the side panel shows for a finished (or running) task: its result and its files. */
export async function loadTaskResult(store: RunStore, task: AgentTaskRecord): Promise<TaskResult> {
  const summaries = `summaries/agents/${task.workspaceKey}/`;
  const scratch = `scratch/agents/${task.workspaceKey}/`;
  const [capsule, summaryFiles, scratchFiles, reasoning] = await Promise.all([
    readCapsule(store, task),
    store.listFiles(task.runId, summaries),
    store.listFiles(task.runId, scratch),
    readReasoning(store, task),
  ]);
  const resultFile = summaryFiles.find((file) => file.path === `${summaries}result.md`);
  const artifacts: TaskArtifact[] = [
    ...summaryFiles.map((file) => ({ file, displayPath: `summaries/${file.path.slice(summaries.length)}` })),
    ...scratchFiles.map((file) => ({ file, displayPath: `scratch/${file.path.slice(scratch.length)}` })),
  ];
  return { capsule, markdown: resultFile?.content ?? (capsule ? capsuleToMarkdown(capsule) : undefined), artifacts, reasoning };
}
