import type { IDBPDatabase } from 'idb';
import { memoryVersionSchema, type MemoryVersion } from '../records/memory-version';
import { validateRecord } from './record-validation';
import type { RunStoreSchema } from './schema';

type Database = IDBPDatabase<RunStoreSchema>;

/** The `memory` object store: agent memory versions, one per conversation and reply (docs/agent-memory.md). */
export class MemoryRecords {
  constructor(
    private readonly database: Database,
    private readonly keyRange: typeof IDBKeyRange,
  ) {}

  async put(version: MemoryVersion): Promise<void> {
    const record = validateRecord(memoryVersionSchema, version, { kind: 'memory version', direction: 'store' });
    await this.database.put('memory', record);
  }

  async get(conversationId: string, lineKey: string): Promise<MemoryVersion | undefined> {
    const record = await this.database.get('memory', [conversationId, lineKey]);
    return record === undefined ? undefined : this.load(record);
  }

  /** The line keys of a conversation that have a version (keys only: cheap on a long chat). */
  async lineKeys(conversationId: string): Promise<Set<string>> {
    const keys = await this.database.getAllKeys('memory', this.keyRange.bound([conversationId], [conversationId, []]));
    return new Set(keys.map((key) => key[1]));
  }

  async ofRun(runId: string): Promise<MemoryVersion[]> {
    const records = await this.database.getAllFromIndex('memory', 'by-run', runId);
    return records.map((record) => this.load(record));
  }

  private load(record: unknown): MemoryVersion {
    return validateRecord(memoryVersionSchema, record, { kind: 'memory version', direction: 'load' });
  }
}
