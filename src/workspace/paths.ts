import { ModelBehaviorError } from '../errors';

/** A workspace path may have at most this many characters... */
export const MAX_PATH_CHARS = 256;
/** ...and at most this many folder and file names. */
export const MAX_PATH_SEGMENTS = 12;

export interface NormalizedPath {
  /** The folder and file names, without `.` names; empty for the workspace root. */
  segments: string[];
  /** Written with a trailing `/` (or the root): the agent meant a folder. */
  isFolder: boolean;
  /** The canonical text: names joined by `/`, a trailing `/` for folders, `''` for the root. */
  path: string;
}

// C0 and C1 control characters, and invisible formatting characters (zero-width, bidirectional
// overrides, byte-order mark) that would let two paths look alike.
// eslint-disable-next-line no-control-regex
const FORBIDDEN_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;
const WINDOWS_DRIVE = /^[A-Za-z]:/;
const EXAMPLE = 'Write paths like "summaries/notes.md" or "scratch/ideas/"';

/**
 * How a path the agent wrote is quoted in an error: JSON-escaped (control characters stay visible)
 * and shortened when long.
 */
export function quotePath(path: string): string {
  const shown = path.length > 120 ? `${path.slice(0, 117)}...` : path;
  return JSON.stringify(shown);
}

function refuse(path: string, problem: string): never {
  throw new ModelBehaviorError('workspace-path-invalid', `The path ${quotePath(path)} ${problem}. ${EXAMPLE}.`);
}

/**
 * Normalises a workspace path as an agent wrote it, or refuses it with a ModelBehaviorError that
 * names the path and says how to write it.
 *
 * Rules: relative paths only (no leading `/`, `~` or drive letter); `/` between names, never `\`;
 * no `..`; `.` names are dropped (`./notes.md` is `notes.md`), so agents that write `./` are not
 * punished for a harmless habit; no empty names (`a//b`); no names that begin or end with a space;
 * no control or invisible characters; at most MAX_PATH_CHARS characters and MAX_PATH_SEGMENTS names.
 * A trailing `/` marks a folder; `''`, `.` and `./` are the workspace root.
 *
 * @example
 * normalizeWorkspacePath('./summaries/notes.md'); // { segments: ['summaries', 'notes.md'], isFolder: false, path: 'summaries/notes.md' }
 * normalizeWorkspacePath('scratch/'); // { segments: ['scratch'], isFolder: true, path: 'scratch/' }
 */
export function normalizeWorkspacePath(path: string): NormalizedPath {
  if (typeof path !== 'string') refuse(String(path), 'is not text');
  if (path.length > MAX_PATH_CHARS) refuse(path, `is longer than ${MAX_PATH_CHARS} characters; use shorter names`);
  if (FORBIDDEN_CHARACTERS.test(path)) refuse(path, 'contains control or invisible characters; remove them');
  if (path.includes('\\')) refuse(path, 'contains a backslash; separate folders with "/"');
  if (path.startsWith('/') || path.startsWith('~') || WINDOWS_DRIVE.test(path)) {
    refuse(path, 'is absolute; workspace paths are relative to the workspace, without a leading "/"');
  }
  const rawSegments = path.split('/');
  const isFolder = path === '' || path.endsWith('/');
  if (isFolder) rawSegments.pop();
  const segments: string[] = [];
  for (const segment of rawSegments) {
    if (segment === '.') continue;
    if (segment === '') refuse(path, 'has an empty name between two "/"; use a single "/"');
    if (segment === '..') refuse(path, 'uses ".."; name the folder you mean from the top of the workspace');
    if (segment.trim() !== segment) refuse(path, 'has a name that begins or ends with a space; remove the spaces');
    segments.push(segment);
  }
  if (segments.length > MAX_PATH_SEGMENTS) refuse(path, `is more than ${MAX_PATH_SEGMENTS} folders deep; use a flatter layout`);
  const folder = isFolder || segments.length === 0;
  return { segments, isFolder: folder, path: joinWorkspacePath(segments, folder) };
}

/** Joins names into a canonical path; folders (and the root) end with `/`, except the root itself. */
export function joinWorkspacePath(segments: readonly string[], isFolder: boolean): string {
  if (segments.length === 0) return '';
  return `${segments.join('/')}${isFolder ? '/' : ''}`;
}

/**
 * Normalises the path of a file (not a folder) an agent names, e.g. a `task.return` artifact; a
 * folder or the root is refused, with the fix in words.
 */
export function normalizeWorkspaceFilePath(path: string): NormalizedPath {
  const normalized = normalizeWorkspacePath(path);
  if (normalized.isFolder) {
    throw new ModelBehaviorError(
      'workspace-is-folder',
      `The path ${quotePath(path)} names a folder; name a file inside it, e.g. "${normalized.path || 'summaries/'}notes.md".`,
    );
  }
  return normalized;
}
