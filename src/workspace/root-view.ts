import { createMemoryFolder, type MemoryFolder } from './memory-view';
import { normalizeWorkspacePath, normalizeWorkspaceFilePath } from './paths';
import type { RunWorkspace } from './run-workspace';
import { isFolderError } from './run-workspace';
import { listExisting, notFoundError, readOnlyError, writeNeedsFileError } from './view-helpers';
import type { WorkspaceEntry, WorkspaceView } from './workspace-view';

/** The folders the root sees, in the order it sees them. `agent-results/` is not among them. */
const ROOT_FOLDERS = ['input', 'memory', 'output', 'scratch', 'summaries'] as const;
const ROOT_HINT = 'Your workspace has input/ (read-only), memory/, output/, scratch/ and summaries/.';

function isRootFolder(name: string | undefined): boolean {
  return (ROOT_FOLDERS as readonly string[]).includes(name ?? '');
}

/** Why a root write is refused, or undefined when it may write there. */
function rootWriteRefusal(segments: string[]): string | undefined {
  const [top, second] = segments;
  if (top === 'input') {
    return 'input/ holds the page\'s request. Keep notes in summaries/ and drafts in scratch/.';
  }
  if (top === 'summaries' && second === 'agents') {
    return 'summaries/agents/ holds the notes of the agents you delegated to. Keep your own notes elsewhere in summaries/, e.g. "summaries/plan.md".';
  }
  if (top === 'scratch' && second === 'agents') {
    return 'scratch/agents/ holds the scratch notes of the agents you delegated to. Use another folder in scratch/, e.g. "scratch/ideas.md".';
  }
  return undefined;
}

/**
 * The root agent's view of the run workspace (DESIGN.md section 6): `input/` (read-only), `output/`,
 * `scratch/`, `summaries/` with each delegated agent's notes under `summaries/agents/<key>/` (read-only,
 * like `scratch/agents/`), and `memory/`, the root agent's memory for this conversation (memory-view.ts).
 * `agent-results/` is hidden, since its names carry runtime ids. Paths are the physical ones otherwise.
 */
export function createRootWorkspaceView(workspace: RunWorkspace, options: { agentId: string }): WorkspaceView {
  const memory: MemoryFolder = createMemoryFolder(workspace, options.agentId);
  return {
    async list(path = ''): Promise<WorkspaceEntry[]> {
      const normalized = normalizeWorkspacePath(path);
      const [top] = normalized.segments;
      if (top === undefined) return ROOT_FOLDERS.map((name) => ({ path: `${name}/`, kind: 'folder' as const }));
      if (!isRootFolder(top)) throw notFoundError(path, ROOT_HINT);
      if (top === 'memory') return memory.list(normalized);
      if (normalized.segments.length === 1) {
        return listExisting({
          workspace,
          physicalPath: `${top}/`,
          shownPath: `${top}/`,
          notFoundHint: ROOT_HINT,
          missingIsEmpty: true,
        });
      }
      return listExisting({
        workspace,
        physicalPath: normalized.path,
        shownPath: normalized.path,
        notFoundHint: `List ${top}/ to see what is there.`,
      });
    },

    async read(path, options = {}) {
      const normalized = normalizeWorkspacePath(path);
      const [top] = normalized.segments;
      if (top === undefined) throw isFolderError(path);
      if (!isRootFolder(top)) throw notFoundError(path, ROOT_HINT);
      if (top === 'memory') return memory.read(normalized, options);
      if (normalized.isFolder || normalized.segments.length === 1) throw isFolderError(path);
      return workspace.read(normalized.path, { ...options, shownAs: normalized.path });
    },

    async write(path, content, mode = 'replace') {
      const normalized = normalizeWorkspacePath(path);
      const [top] = normalized.segments;
      if (top !== undefined && !isRootFolder(top)) {
        throw notFoundError(path, 'Write inside memory/, output/, scratch/ or summaries/, e.g. "output/reply.md".');
      }
      if (top === 'memory') return memory.write(normalized, content, mode);
      if (normalized.isFolder || normalized.segments.length === 1) {
        throw writeNeedsFileError(normalized.path || path, `${top ?? 'scratch'}/notes.md`);
      }
      const refusal = rootWriteRefusal(normalized.segments);
      if (refusal) throw readOnlyError(path, refusal);
      const file = normalizeWorkspaceFilePath(normalized.path);
      return workspace.write(file.path, content, { mode, shownAs: file.path, writer: 'agent' });
    },
  };
}
