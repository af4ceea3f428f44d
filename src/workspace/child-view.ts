import { ModelBehaviorError } from '../errors';
import { childScratchFolder, childSummariesFolder, SUMMARIES_FOLDER } from './layout';
import { joinWorkspacePath, normalizeWorkspaceFilePath, normalizeWorkspacePath, quotePath, type NormalizedPath } from './paths';
import { createMemoryFolder } from './memory-view';
import { isFolderError, type RunWorkspace } from './run-workspace';
import { listExisting, listMapped, notFoundError, readOnlyError, writeNeedsFileError } from './view-helpers';
import type { WorkspaceEntry, WorkspaceView } from './workspace-view';

/**
 * A return-mode child's virtual workspace (DESIGN.md sections 6 and 11), for the child with
 * workspace key `<key>`:
 *
 * | child sees          | is                                  | may         |
 * | ------------------- | ----------------------------------- | ----------- |
 * | `summaries/`        | `summaries/agents/<key>/`           | read, write |
 * | `scratch/`          | `scratch/agents/<key>/`             | read, write |
 * | `summaries/parent/` | `summaries/` without `agents/`      | read        |
 * | `summaries/agents/` | `summaries/agents/` without `<key>` | read        |
 * | `memory/`           | `memory/<agent-id>/`                | read, write |
 *
 * `memory/` is the agent's memory for this conversation (memory-view.ts), shared by every task of the
 * same agent and kept across turns; it is only in the view when the scope names the agent.
 * `summaries/parent/agents/...` and `summaries/agents/<key>/...` are refused with what to use instead;
 * `summaries/result.md` is written by `task.return` alone. Every result and error names the path as
 * the child wrote it, never a physical one.
 *
 * One level down (nested delegation), for a task given by the child with key `<parent>`, the same
 * rules apply with the parent in the root's place: `summaries/parent/` is `summaries/agents/<parent>/`
 * (read), and `summaries/agents/` shows only the agents of `visibleAgents` (those working beside it for
 * the same parent, and its own helpers); nothing above its parent is in its view.
 */

/** Whose view: a task's key, and for a task given by another task, that task's key and who else is in sight. */
export interface ChildScope {
  workspaceKey: string;
  /** The key of the task that gave this one; absent when the root gave it. */
  parentKey?: string;
  /** The other agents' keys this one may read under `summaries/agents/`; absent means all of them. */
  visibleAgents?: () => ReadonlySet<string>;
  /** The task's agent (its profile id), whose `memory/` this view holds; absent: no `memory/`. */
  memoryAgentId?: string;
}

const CHILD_HINT = 'You can use summaries/ and scratch/, and read summaries/parent/ and summaries/agents/.';
const CHILD_WITH_MEMORY_HINT = 'You can use summaries/, scratch/ and memory/, and read summaries/parent/ and summaries/agents/.';
const RESULT_FILE = 'result.md';

/** Where a virtual path lands: under `base` (a physical folder), the names in `rest`. */
interface ChildLocation {
  base: string;
  rest: string[];
  /** Absent when the child may write there. */
  readOnlyReason?: string;
  /** Physical names left out when listing `base` itself. */
  hide: string[];
  /** Virtual folders added when listing `base` itself. */
  extraFolders: string[];
  /** When set, only these physical names show when listing `base` itself. */
  only?: ReadonlySet<string>;
}

function refusedAlias(shownAs: string, instead: string): ModelBehaviorError {
  return new ModelBehaviorError('workspace-path-refused', `${quotePath(shownAs)} is not available in your workspace. ${instead}`);
}

/** Maps a normalised virtual path onto the physical workspace, or refuses it; undefined is the top. */
function locate(scope: ChildScope, normalized: NormalizedPath, shownAs: string): ChildLocation | undefined {
  const { workspaceKey, parentKey } = scope;
  const [top, ...rest] = normalized.segments;
  if (top === undefined) return undefined;
  if (top === 'scratch') return { base: childScratchFolder(workspaceKey), rest, hide: [], extraFolders: [] };
  if (top !== 'summaries') throw notFoundError(shownAs, scope.memoryAgentId === undefined ? CHILD_HINT : CHILD_WITH_MEMORY_HINT);

  const [area, ...inside] = rest;
  if (area === 'parent') {
    if (inside[0] === 'agents') {
      throw refusedAlias(shownAs, 'Read the notes of other agents under summaries/agents/ instead.');
    }
    return {
      base: parentKey === undefined ? SUMMARIES_FOLDER : childSummariesFolder(parentKey),
      rest: inside,
      readOnlyReason: 'summaries/parent/ holds the notes of the agent that gave you this task. Keep your own notes in summaries/ or scratch/.',
      hide: ['agents'],
      extraFolders: [],
    };
  }
  if (area === 'agents') {
    if (inside[0] === workspaceKey) {
      // Your own summaries/ has no agents/ or parent/ of its own: those names are the other areas.
      if (inside[1] === 'agents' || inside[1] === 'parent') {
        throw refusedAlias(shownAs, "That is your own notes folder named from outside: keep your notes directly in summaries/ (its parent/ and agents/ hold other agents' notes).");
      }
      const own = joinWorkspacePath(['summaries', ...inside.slice(1)], normalized.isFolder || inside.length === 1);
      throw refusedAlias(shownAs, `That is your own notes folder: use ${quotePath(own || 'summaries/')} instead.`);
    }
    if (parentKey !== undefined && inside[0] === parentKey) {
      const asParent = joinWorkspacePath(['summaries', 'parent', ...inside.slice(1)], normalized.isFolder || inside.length === 1);
      throw refusedAlias(shownAs, `Those are the notes of the agent that gave you this task: use ${quotePath(asParent)} instead.`);
    }
    const only = scope.visibleAgents?.();
    if (only && inside[0] !== undefined && !only.has(inside[0])) {
      throw notFoundError(shownAs, 'List summaries/agents/ to see the notes you can read.');
    }
    return {
      base: `${SUMMARIES_FOLDER}agents/`,
      rest: inside,
      readOnlyReason: 'summaries/agents/ holds the notes of other agents. Keep your own notes in summaries/ or scratch/.',
      hide: [workspaceKey],
      extraFolders: [],
      ...(only ? { only } : {}),
    };
  }
  return { base: childSummariesFolder(workspaceKey), rest, hide: ['parent', 'agents'], extraFolders: ['parent', 'agents'] };
}

function asScope(scope: ChildScope | string): ChildScope {
  return typeof scope === 'string' ? { workspaceKey: scope } : scope;
}

/** The virtual folder that holds a virtual path, for "list it to see what is there" hints. */
function shownParentFolder(normalized: NormalizedPath): string {
  return joinWorkspacePath(normalized.segments.slice(0, -1), true) || 'the top of your workspace';
}

/**
 * Creates the workspace view of the return-mode child whose task has `workspaceKey`.
 *
 * @example
 * const view = createChildWorkspaceView({ workspace, workspaceKey: 'scene-critic' });
 * await view.write('summaries/notes.md', '# Notes'); // lands in summaries/agents/scene-critic/notes.md
 */
export function createChildWorkspaceView(options: { workspace: RunWorkspace } & ChildScope): WorkspaceView {
  const { workspace, ...scope } = options;
  const { workspaceKey } = scope;
  const memory = scope.memoryAgentId === undefined ? undefined : createMemoryFolder(workspace, scope.memoryAgentId);
  const memoryOf = (normalized: NormalizedPath) => (memory && normalized.segments[0] === 'memory' ? memory : undefined);
  // Fails fast (HostContractError) on a key that cannot be a folder name.
  childSummariesFolder(workspaceKey);
  if (scope.parentKey !== undefined) childSummariesFolder(scope.parentKey);

  return {
    async list(path = ''): Promise<WorkspaceEntry[]> {
      const normalized = normalizeWorkspacePath(path);
      const inMemory = memoryOf(normalized);
      if (inMemory) return inMemory.list(normalized);
      const location = locate(scope, normalized, path);
      if (!location) {
        return [
          ...(memory ? [{ path: 'memory/', kind: 'folder' as const }] : []),
          { path: 'scratch/', kind: 'folder' },
          { path: 'summaries/', kind: 'folder' },
        ];
      }
      const shownFolder = joinWorkspacePath(normalized.segments, true);
      if (location.rest.length === 0) {
        return listMapped({
          workspace,
          physicalFolder: location.base,
          shownFolder,
          hide: location.hide,
          extraFolders: location.extraFolders,
          only: location.only,
        });
      }
      return listExisting({
        workspace,
        physicalPath: `${location.base}${location.rest.join('/')}`,
        shownPath: normalized.path,
        notFoundHint: `List ${shownParentFolder(normalized)} to see what is there.`,
      });
    },

    async read(path, readOptions = {}) {
      const normalized = normalizeWorkspacePath(path);
      const inMemory = memoryOf(normalized);
      if (inMemory) return inMemory.read(normalized, readOptions);
      const location = locate(scope, normalized, path);
      if (!location || location.rest.length === 0) throw isFolderError(normalized.path || path);
      if (normalized.isFolder) throw isFolderError(normalized.path);
      return workspace.read(`${location.base}${location.rest.join('/')}`, { ...readOptions, shownAs: normalized.path });
    },

    async write(path, content, mode = 'replace') {
      const normalized = normalizeWorkspacePath(path);
      const inMemory = memoryOf(normalized);
      if (inMemory) return inMemory.write(normalized, content, mode);
      const location = locate(scope, normalized, path);
      if (!location) throw writeNeedsFileError('', 'summaries/notes.md');
      if (location.readOnlyReason) throw readOnlyError(normalized.path, location.readOnlyReason);
      if (location.rest.length === 0 || normalized.isFolder) {
        throw writeNeedsFileError(normalized.path, `${joinWorkspacePath(normalized.segments, true)}notes.md`);
      }
      // Also refuses `summaries/result.md/...`: a folder there would stop task.return from writing the result.
      if (location.base === childSummariesFolder(workspaceKey) && location.rest[0] === RESULT_FILE) {
        throw new ModelBehaviorError(
          'workspace-result-reserved',
          `"summaries/result.md" is written by task_return alone: give your result to task_return when you finish. ` +
            'Keep your notes in another file, e.g. "summaries/notes.md".',
        );
      }
      return workspace.write(`${location.base}${location.rest.join('/')}`, content, {
        mode,
        shownAs: normalized.path,
        writer: 'agent',
      });
    },
  };
}

/**
 * Normalises a file path a child names in its view (a `task.return` artifact) and translates it to
 * the physical path. Refuses, with a ModelBehaviorError naming the path as written, a path that is
 * invalid, outside the child's view, refused as an alias, or a folder. Does not check that the file exists.
 *
 * @example
 * resolveChildArtifactPath('scene-critic', './summaries/notes.md');
 * // { virtualPath: 'summaries/notes.md', physicalPath: 'summaries/agents/scene-critic/notes.md' }
 */
export function resolveChildArtifactPath(
  scope: ChildScope | string,
  path: string,
): { virtualPath: string; physicalPath: string } {
  const normalized = normalizeWorkspaceFilePath(path);
  if (normalized.segments[0] === 'memory') {
    throw refusedAlias(path, 'Your memory/ is kept for your own later turns and other agents cannot open it: copy what they should read into summaries/ and name that file.');
  }
  const location = locate(asScope(scope), normalized, path);
  if (!location || location.rest.length === 0) throw isFolderError(normalized.path || path);
  return { virtualPath: normalized.path, physicalPath: `${location.base}${location.rest.join('/')}` };
}
