import { ModelBehaviorError } from '../errors';
import { quotePath } from './paths';
import type { RunWorkspace } from './run-workspace';
import type { WorkspaceEntry } from './workspace-view';

/** The agent named something its view does not have. `hint` says what it can use instead. */
export function notFoundError(shownAs: string, hint: string): ModelBehaviorError {
  return new ModelBehaviorError('workspace-not-found', `There is no ${quotePath(shownAs)} in your workspace. ${hint}`);
}

/** The agent tried to write where its view only reads. `reason` says why and where to write instead. */
export function readOnlyError(shownAs: string, reason: string): ModelBehaviorError {
  return new ModelBehaviorError('workspace-read-only', `${quotePath(shownAs)} is read-only: ${reason}`);
}

/** The agent wrote to a folder (or the root) instead of a file. */
export function writeNeedsFileError(shownAs: string, example: string): ModelBehaviorError {
  return new ModelBehaviorError(
    'workspace-is-folder',
    `${shownAs === '' ? 'The top of the workspace' : quotePath(shownAs)} is a folder; write to a file inside it, e.g. ${quotePath(example)}.`,
  );
}

/**
 * Lists a physical folder as the agent sees it: entries get the agent's folder path in front, hidden
 * names are left out, and extra (virtual) folders are added.
 */
export async function listMapped(options: {
  workspace: RunWorkspace;
  physicalFolder: string;
  shownFolder: string;
  hide?: readonly string[];
  extraFolders?: readonly string[];
  /** When set, only these names show (the rest are out of the agent's sight). */
  only?: ReadonlySet<string>;
}): Promise<WorkspaceEntry[]> {
  const { workspace, physicalFolder, shownFolder, hide = [], extraFolders = [], only } = options;
  const entries: WorkspaceEntry[] = [];
  for (const entry of await workspace.listFolder(physicalFolder)) {
    if (hide.includes(entry.name) || (only && !only.has(entry.name))) continue;
    entries.push(
      entry.kind === 'folder'
        ? { path: `${shownFolder}${entry.name}/`, kind: 'folder' }
        : { path: `${shownFolder}${entry.name}`, kind: 'file', size: entry.size },
    );
  }
  for (const name of extraFolders) entries.push({ path: `${shownFolder}${name}/`, kind: 'folder' });
  return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Lists what a path names when it is not a known folder: a file lists as itself, a folder lists its
 * entries, and nothing at all is "not found".
 */
export async function listExisting(options: {
  workspace: RunWorkspace;
  physicalPath: string;
  shownPath: string;
  hide?: readonly string[];
  notFoundHint: string;
  /** A well-known folder that simply has no files yet lists as empty instead of "not found". */
  missingIsEmpty?: boolean;
}): Promise<WorkspaceEntry[]> {
  const { workspace, physicalPath, shownPath, hide, notFoundHint, missingIsEmpty = false } = options;
  const bare = physicalPath.replace(/\/$/, '');
  const shownBare = shownPath.replace(/\/$/, '');
  const kind = await workspace.kindOf(bare);
  if (kind === 'file') {
    const file = await workspace.store.readFile(workspace.runId, bare);
    return [{ path: shownBare, kind: 'file', size: file?.content.length ?? 0 }];
  }
  if (kind === 'missing') {
    if (missingIsEmpty) return [];
    throw notFoundError(shownPath, notFoundHint);
  }
  return listMapped({ workspace, physicalFolder: `${bare}/`, shownFolder: `${shownBare}/`, hide });
}
