import { MAX_MEMORY_CHARS, type MemoryFile, type MemoryVersion } from '../../records/memory-version';
import type { RunStore } from '../../store/run-store';

/**
 * The side panel's changes to an agent's memory (docs/agent-memory.md): the user edits or clears
 * the memory as it stood after a reply, so the next turn that continues that reply starts from what
 * the user left. Each change is saved as the same version, marked `editedAt`.
 */

/** The memory a run's reply made: its newest version, or undefined before the reply is recorded. */
export async function memoryOfRun(store: RunStore, runId: string): Promise<MemoryVersion | undefined> {
  const versions = await store.listMemoryVersionsOfRun(runId);
  return versions.sort((left, right) => right.createdAt - left.createdAt)[0];
}

/** Characters an agent's files hold together. */
export function memoryChars(files: readonly MemoryFile[]): number {
  return files.reduce((sum, file) => sum + file.content.length, 0);
}

/** Whether replacing one file's content keeps the agent's memory within its cap. */
export function editFits(files: readonly MemoryFile[], path: string, content: string): boolean {
  const others = files.filter((file) => file.path !== path);
  return memoryChars(others) + content.length <= MAX_MEMORY_CHARS;
}

/** Saves `content` as the agent's file `path` in this version; the caller checked `editFits`. */
export async function saveMemoryFile(store: RunStore, version: MemoryVersion, change: { agentId: string; path: string; content: string; now: number }): Promise<MemoryVersion> {
  const files = version.agents[change.agentId] ?? [];
  const next = files.some((file) => file.path === change.path)
    ? files.map((file) => (file.path === change.path ? { ...file, content: change.content } : file))
    : [...files, { path: change.path, content: change.content }];
  const edited: MemoryVersion = { ...version, agents: { ...version.agents, [change.agentId]: next }, editedAt: change.now };
  await store.putMemoryVersion(edited);
  return edited;
}

/** Clears the agent's memory in this version: the next turn on this line starts it empty. */
export async function clearAgentMemory(store: RunStore, version: MemoryVersion, agentId: string, now: number): Promise<MemoryVersion> {
  const { [agentId]: _cleared, ...rest } = version.agents;
  const edited: MemoryVersion = { ...version, agents: rest, editedAt: now };
  await store.putMemoryVersion(edited);
  return edited;
}
