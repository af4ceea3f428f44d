import { MAX_MEMORY_CHARS, MAX_MEMORY_FILES } from '../records/memory-version';
import { agentMemoryFolder } from './layout';
import type { NormalizedPath } from './paths';
import { isFolderError, type FolderCap, type RunWorkspace } from './run-workspace';
import { listExisting, listMapped, writeNeedsFileError } from './view-helpers';
import type { WorkspaceEntry, WorkspaceReadResult } from './workspace-view';

/**
 * An agent's `memory/` folder, the same in the root's view and a child's: files that persist for
 * this conversation (docs/agent-memory.md). It maps `memory/...` onto `memory/<agent-id>/...` of the
 * run, where the run started from the memory of the reply it continues; what the agent writes
 * becomes the memory of this run's reply once that is recorded. Capped per agent: MAX_MEMORY_CHARS
 * characters and MAX_MEMORY_FILES files.
 */
export interface MemoryFolder {
  list(normalized: NormalizedPath): Promise<WorkspaceEntry[]>;
  read(normalized: NormalizedPath, options: { offset?: number; limit?: number }): Promise<WorkspaceReadResult>;
  write(normalized: NormalizedPath, content: string, mode: 'replace' | 'append'): Promise<{ path: string; totalChars: number }>;
}

const SHOWN_FOLDER = 'memory/';

/** The refusal when a write would pass the memory cap; it speaks of `memory/` only. */
function memoryFullMessage(shownAs: string, cap: { usedChars: number; nextChars: number; files: number; maxChars: number; maxFiles: number }): string {
  if (cap.files > cap.maxFiles) {
    return (
      `"${shownAs}" was not written: your memory/ may hold at most ${cap.maxFiles} files. ` +
      'Put what you keep into fewer files, e.g. replace several notes with one "memory/state.md".'
    );
  }
  return (
    `"${shownAs}" was not written: your memory/ would hold ${cap.usedChars + cap.nextChars} characters, and it may hold at most ${cap.maxChars} ` +
    `for this conversation (${cap.usedChars} are used by your other memory files). Keep memory short: replace a file with a condensed version, or write less.`
  );
}

/** The `memory/` folder of the agent `agentId` over a run's workspace. */
export function createMemoryFolder(workspace: RunWorkspace, agentId: string): MemoryFolder {
  const physicalFolder = agentMemoryFolder(agentId);
  const physical = (normalized: NormalizedPath): string => `${physicalFolder}${normalized.segments.slice(1).join('/')}`;
  const cap: FolderCap = { folder: physicalFolder, maxChars: MAX_MEMORY_CHARS, maxFiles: MAX_MEMORY_FILES, refusal: memoryFullMessage };
  return {
    list(normalized) {
      if (normalized.segments.length === 1) return listMapped({ workspace, physicalFolder, shownFolder: SHOWN_FOLDER });
      return listExisting({
        workspace,
        physicalPath: physical(normalized),
        shownPath: normalized.path,
        notFoundHint: 'List memory/ to see what you remember.',
      });
    },
    read(normalized, options) {
      if (normalized.isFolder || normalized.segments.length === 1) throw isFolderError(normalized.path);
      return workspace.read(physical(normalized), { ...options, shownAs: normalized.path });
    },
    write(normalized, content, mode) {
      if (normalized.isFolder || normalized.segments.length === 1) throw writeNeedsFileError(normalized.path, 'memory/state.md');
      return workspace.write(physical(normalized), content, { mode, shownAs: normalized.path, writer: 'agent', folderCap: cap });
    },
  };
}
