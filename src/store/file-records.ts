import type { IDBPDatabase } from 'idb';
import { workspaceFileSchema, type WorkspaceFile } from '../records/workspace-file';
import { committed } from './invocation-records';
import { validateRecord } from './record-validation';
import type { RunStoreSchema } from './schema';

type Database = IDBPDatabase<RunStoreSchema>;

/** The `files` object store: each run's workspace files, keyed by run and path. */
export class FileRecords {
  constructor(
    private readonly database: Database,
    private readonly keyRange: typeof IDBKeyRange,
  ) {}

  async get(runId: string, path: string): Promise<WorkspaceFile | undefined> {
    const record = await this.database.get('files', [runId, path]);
    return record === undefined ? undefined : this.load(record);
  }

  async put(file: WorkspaceFile): Promise<void> {
    await this.database.put('files', this.checked(file));
  }

  async delete(runId: string, path: string): Promise<void> {
    await this.database.delete('files', [runId, path]);
  }

  /** The run's files whose path starts with `prefix`, leaving those under `except.folder` unread. */
  async list(runId: string, prefix: string, except: { folder: string } | undefined): Promise<WorkspaceFile[]> {
    const records = await this.readIn(this.database.transaction('files'), runId, prefix, except);
    return records.map((record) => this.load(record));
  }

  /** Reads the run's files (but `except.folder`), lets `decide` make the file to write, and puts it, in one transaction. */
  async putChecked(runId: string, except: { folder: string } | undefined, decide: (files: WorkspaceFile[]) => WorkspaceFile): Promise<WorkspaceFile> {
    const transaction = this.database.transaction('files', 'readwrite');
    return committed(transaction, async () => {
      const files = (await this.readIn(transaction, runId, '', except)).map((record) => this.load(record));
      const file = this.checked(decide(files));
      await transaction.store.put(file);
      return file;
    });
  }

  private async readIn(
    transaction: { store: { getAll(range: IDBKeyRange): Promise<WorkspaceFile[]> } },
    runId: string,
    prefix: string,
    except: { folder: string } | undefined,
  ): Promise<WorkspaceFile[]> {
    // '\uffff' is above every code unit a path may hold, so [p, p + '\uffff'] is exactly "starts with p".
    const end = `${prefix}\uffff`;
    const left = except && except.folder.startsWith(prefix) ? except.folder : undefined;
    const ranges = left
      ? [this.keyRange.bound([runId, prefix], [runId, left], false, true), this.keyRange.bound([runId, `${left}\uffff`], [runId, end], true, false)]
      : [this.keyRange.bound([runId, prefix], [runId, end])];
    const parts = await Promise.all(ranges.map((range) => transaction.store.getAll(range)));
    return parts.flat().filter((record) => record.path.startsWith(prefix) && !(left && record.path.startsWith(left)));
  }

  private checked(file: WorkspaceFile): WorkspaceFile {
    return validateRecord(workspaceFileSchema, file, { kind: 'workspace file', direction: 'store' });
  }

  private load(record: unknown): WorkspaceFile {
    return validateRecord(workspaceFileSchema, record, { kind: 'workspace file', direction: 'load' });
  }
}
