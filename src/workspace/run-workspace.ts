import { HostContractError, ModelBehaviorError, RetinueError } from '../errors';
import type { WorkspaceFile } from '../records/workspace-file';
import type { RunStore } from '../store/run-store';
import { INPUT_FOLDER } from './layout';
import { normalizeWorkspacePath, quotePath } from './paths';
import type { WorkspaceReadResult } from './workspace-view';

/** Characters one file may hold when an agent writes it. */
export const MAX_FILE_CHARS = 262_144;
/** Characters one file may hold when the runtime writes it (the prompt snapshot, capsules). */
export const MAX_RUNTIME_FILE_CHARS = 8_388_608;
/** Characters all files of a run may hold together, not counting `input/` (the page's request, capped at the bridge). */
export const MAX_RUN_CHARS = 8_388_608;
/** Characters one read returns unless the agent asks for fewer or more... */
export const DEFAULT_READ_CHARS = 20_000;
/** ...and at most. */
export const MAX_READ_CHARS = 100_000;

export interface WorkspaceLimits {
  maxFileChars: number;
  maxRuntimeFileChars: number;
  maxRunChars: number;
}

/** One immediate child of a folder. */
export interface FolderEntry {
  name: string;
  kind: 'file' | 'folder';
  /** Characters, for files. */
  size?: number;
}

export interface WorkspaceReadOptions {
  offset?: number;
  limit?: number;
  /** The path as the agent wrote it, for results and errors; defaults to the physical path. */
  shownAs?: string;
}

/** A cap on one folder's files together (an agent's memory), checked with the write, in the run's write queue. */
export interface FolderCap {
  /** A physical folder ending with `/`. */
  folder: string;
  maxChars: number;
  maxFiles: number;
  /** The refusal's text, from the path as the agent wrote it and what the folder would hold. */
  refusal(shownAs: string, measure: { usedChars: number; nextChars: number; files: number; maxChars: number; maxFiles: number }): string;
}

export interface WorkspaceWriteOptions {
  mode?: 'replace' | 'append';
  shownAs?: string;
  /** Refuses the write (ModelBehaviorError `workspace-folder-full`) when the folder would pass this cap. */
  folderCap?: FolderCap;
  /** Agent writes are capped at maxFileChars and by the run's total; runtime writes only at maxRuntimeFileChars. */
  writer?: 'agent' | 'runtime';
}

// Writes to one run go one at a time (per store object), so appends and the run total stay exact
// when an agent's tool calls run in parallel.
const writeQueues = new WeakMap<RunStore, Map<string, Promise<unknown>>>();

function enqueueWrite<T>(store: RunStore, runId: string, write: () => Promise<T>): Promise<T> {
  let queues = writeQueues.get(store);
  if (!queues) writeQueues.set(store, (queues = new Map()));
  const previous = queues.get(runId) ?? Promise.resolve();
  const next = previous.then(write, write);
  const settled = next.catch(() => undefined);
  queues.set(runId, settled);
  void settled.then(() => {
    if (queues.get(runId) === settled) queues.delete(runId);
  });
  return next;
}

function requireCount(value: number | undefined, name: string, minimum: number): void {
  if (value === undefined) return;
  if (!Number.isInteger(value) || value < minimum) {
    throw new ModelBehaviorError('workspace-read-range', `${name} must be a whole number of at least ${minimum}; got ${value}.`);
  }
}

/**
 * The physical workspace of one run over the RunStore: paths here are physical (`summaries/agents/critic/`),
 * so use it directly only for the runtime's own files; agents go through a root or child view.
 *
 * @example
 * const workspace = new RunWorkspace({ store, runId });
 * await workspace.write(PROMPT_SNAPSHOT_PATH, JSON.stringify(snapshot));
 */
export class RunWorkspace {
  readonly store: RunStore;
  readonly runId: string;
  readonly limits: WorkspaceLimits;
  private readonly now: () => number;

  constructor(options: { store: RunStore; runId: string; now?: () => number; limits?: Partial<WorkspaceLimits> }) {
    this.store = options.store;
    this.runId = options.runId;
    this.now = options.now ?? Date.now;
    this.limits = {
      maxFileChars: MAX_FILE_CHARS,
      maxRuntimeFileChars: MAX_RUNTIME_FILE_CHARS,
      maxRunChars: MAX_RUN_CHARS,
      ...options.limits,
    };
  }

  /** Files whose physical path starts with `prefix` (all when empty), sorted by path. */
  list(prefix = ''): Promise<WorkspaceFile[]> {
    return this.store.listFiles(this.runId, prefix);
  }

  /** The immediate files and folders of a physical folder (`''` or ending with `/`), sorted by name. */
  async listFolder(folder: string): Promise<FolderEntry[]> {
    const entries = new Map<string, FolderEntry>();
    for (const file of await this.list(folder)) {
      const rest = file.path.slice(folder.length);
      const slash = rest.indexOf('/');
      if (slash === -1) entries.set(rest, { name: rest, kind: 'file', size: file.content.length });
      else entries.set(rest.slice(0, slash), { name: rest.slice(0, slash), kind: 'folder' });
    }
    return [...entries.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Whether a physical path names a file, a folder (a prefix of some file), or nothing. */
  async kindOf(path: string): Promise<'file' | 'folder' | 'missing'> {
    const bare = path.endsWith('/') ? path.slice(0, -1) : path;
    if (bare !== '' && (await this.store.readFile(this.runId, bare))) return 'file';
    if (bare === '' || (await this.list(`${bare}/`)).length > 0) return 'folder';
    return 'missing';
  }

  /** The whole text of a physical file, or undefined; for the runtime's own reads. */
  async readText(path: string): Promise<string | undefined> {
    return (await this.store.readFile(this.runId, path))?.content;
  }

  /** Reads part of a file: `limit` characters (DEFAULT_READ_CHARS, at most MAX_READ_CHARS) from `offset`. */
  async read(path: string, options: WorkspaceReadOptions = {}): Promise<WorkspaceReadResult> {
    const shownAs = options.shownAs ?? path;
    requireCount(options.offset, 'offset', 0);
    requireCount(options.limit, 'limit', 1);
    const file = await this.store.readFile(this.runId, path);
    if (!file) {
      if ((await this.kindOf(path)) === 'folder') throw isFolderError(shownAs);
      throw new ModelBehaviorError(
        'workspace-not-found',
        `There is no file ${quotePath(shownAs)}. List its folder with workspace_list to see what is there.`,
      );
    }
    const totalChars = file.content.length;
    const offset = options.offset ?? 0;
    if (offset > totalChars) {
      throw new ModelBehaviorError(
        'workspace-read-range',
        `${quotePath(shownAs)} has ${totalChars} characters, so offset ${offset} is past its end; read from an offset below ${totalChars}.`,
      );
    }
    const limit = Math.min(options.limit ?? DEFAULT_READ_CHARS, MAX_READ_CHARS);
    const end = Math.min(offset + limit, totalChars);
    return {
      path: shownAs,
      content: file.content.slice(offset, end),
      totalChars,
      ...(end < totalChars ? { nextOffset: end } : {}),
    };
  }

  /** Writes (replaces or appends to) a physical file, within the caps; writes to one run run one at a time. */
  write(path: string, content: string, options: WorkspaceWriteOptions = {}): Promise<{ path: string; totalChars: number }> {
    return enqueueWrite(this.store, this.runId, async () => {
      // Read, checked and written in one transaction.
      const file = await this.store.writeFileChecked(this.runId, exceptFor(path), (files) => this.checkedFile(path, content, options, files));
      return { path: options.shownAs ?? path, totalChars: file.content.length };
    });
  }

  /**
   * Writes several physical files as the runtime (a result's capsule and its markdown) in one step:
   * each within the caps of `write`, all stored or none. `store` writes the checked files (by
   * default a step of their own; a caller may add records of its own to that step), in the run's
   * write queue.
   */
  writeFiles(entries: readonly { path: string; content: string }[], store: (files: WorkspaceFile[]) => Promise<unknown> = (files) => this.store.saveStep({ files })): Promise<void> {
    return enqueueWrite(this.store, this.runId, async () => {
      const files = entries.some((entry) => entry.path.startsWith(INPUT_FOLDER)) ? await this.store.listFiles(this.runId) : await this.filesBeside('');
      const written = entries.map((entry) => {
        const file = this.checkedFile(entry.path, entry.content, {}, files);
        files.push(file);
        return file;
      });
      await store(written);
    });
  }

  /**
   * What a write's checks read, in one read: the run's files, without the page's chat in input/
   * unless the write goes there (nothing outside input/ lies in it or above it, and it counts
   * toward no cap).
   */
  private filesBeside(path: string): Promise<WorkspaceFile[]> {
    return this.store.listFiles(this.runId, '', exceptFor(path));
  }

  /** The file a write of `content` to `path` leaves, checked against `files` (what `filesBeside` read). */
  private checkedFile(path: string, content: string, options: WorkspaceWriteOptions, files: readonly WorkspaceFile[]): WorkspaceFile {
    const shownAs = options.shownAs ?? path;
    const writer = options.writer ?? 'runtime';
    const segments = this.physicalFileSegments(path);
    if (typeof content !== 'string') throw new ModelBehaviorError('workspace-content-invalid', 'content must be text.');
    if (files.some((file) => file.path.startsWith(`${path}/`))) throw isFolderError(shownAs);
    const byPath = new Map(files.map((file) => [file.path, file]));
    refuseFileAncestor(segments, shownAs, byPath);

    const existing = byPath.get(path);
    const next = options.mode === 'append' ? `${existing?.content ?? ''}${content}` : content;
    const fileCap = writer === 'agent' ? this.limits.maxFileChars : this.limits.maxRuntimeFileChars;
    if (next.length > fileCap) {
      const message =
        `${quotePath(shownAs)} would hold ${next.length} characters; a file may hold at most ${fileCap}. ` +
        'Write less, or split the text into several files.';
      throw writer === 'agent'
        ? new ModelBehaviorError('workspace-file-too-large', message)
        : new HostContractError('workspace-file-too-large', message);
    }
    if (options.folderCap) refuseOverFolderCap(options.folderCap, files, path, next.length, shownAs);
    if (writer === 'agent' && !path.startsWith(INPUT_FOLDER)) {
      const total = files
        .filter((file) => !file.path.startsWith(INPUT_FOLDER) && file.path !== path)
        .reduce((sum, file) => sum + file.content.length, 0);
      if (total + next.length > this.limits.maxRunChars) {
        throw new ModelBehaviorError(
          'workspace-full',
          `The workspace of this run is full (${total} of ${this.limits.maxRunChars} characters used), so ` +
            `${quotePath(shownAs)} was not written. Write something shorter, or replace a file you no longer need.`,
        );
      }
    }
    return { runId: this.runId, path, content: next, updatedAt: this.now() };
  }

  /** A physical file path must already be normalised; anything else is a bug in the caller. */
  private physicalFileSegments(path: string): string[] {
    let normalized;
    try {
      normalized = normalizeWorkspacePath(path);
    } catch (error) {
      if (!(error instanceof RetinueError)) throw error;
      throw new HostContractError('workspace-path-invalid', `The runtime tried to write an invalid workspace path: ${error.message}`, { cause: error });
    }
    if (normalized.isFolder || normalized.path !== path) {
      throw new HostContractError('workspace-path-invalid', `The runtime tried to write ${JSON.stringify(path)}, which is not a normalised file path.`);
    }
    return normalized.segments;
  }

}

/** What a write to `path` leaves unread: the page's chat in input/, unless it writes there. */
function exceptFor(path: string): { folder: string } | undefined {
  return path.startsWith(INPUT_FOLDER) ? undefined : { folder: INPUT_FOLDER };
}

/** A file cannot sit inside another file: `output/a` being a file refuses `output/a/b`. */
function refuseFileAncestor(segments: string[], shownAs: string, byPath: ReadonlyMap<string, WorkspaceFile>): void {
  const shownSegments = normalizeWorkspacePath(shownAs).segments;
  for (let depth = 1; depth < segments.length; depth += 1) {
    if (!byPath.has(segments.slice(0, depth).join('/'))) continue;
    // The views map a folder prefix onto another, so the names below it match: trim the shown path.
    const shownDepth = shownSegments.length - (segments.length - depth);
    const shownAncestor = shownDepth > 0 ? quotePath(shownSegments.slice(0, shownDepth).join('/')) : 'a folder above it';
    throw new ModelBehaviorError(
      'workspace-not-a-folder',
      `${quotePath(shownAs)} cannot be written because ${shownAncestor} is a file, not a folder. Choose another path.`,
    );
  }
}

function refuseOverFolderCap(cap: FolderCap, files: readonly WorkspaceFile[], path: string, nextChars: number, shownAs: string): void {
  const others = files.filter((file) => file.path.startsWith(cap.folder) && file.path !== path);
  const usedChars = others.reduce((sum, file) => sum + file.content.length, 0);
  const measure = { usedChars, nextChars, files: others.length + 1, maxChars: cap.maxChars, maxFiles: cap.maxFiles };
  if (measure.files > cap.maxFiles || usedChars + nextChars > cap.maxChars) {
    throw new ModelBehaviorError('workspace-folder-full', cap.refusal(shownAs, measure));
  }
}

/** The agent named a folder where a file was needed. */
export function isFolderError(shownAs: string): ModelBehaviorError {
  return new ModelBehaviorError(
    'workspace-is-folder',
    `${quotePath(shownAs)} is a folder, not a file. List it with workspace_list, or name a file inside it.`,
  );
}
