/**
 * What an agent sees of the run workspace. The root and each return-mode child get their own view
 * (DESIGN.md section 6); every path in and out is the path the agent wrote, never a physical one.
 * Refusals throw a ModelBehaviorError whose message names that path and says what to do.
 */
export interface WorkspaceEntry {
  /** The path as the agent sees it; folders end with `/`. */
  path: string;
  kind: 'file' | 'folder';
  /** Characters, for files. */
  size?: number;
}

export interface WorkspaceReadResult {
  path: string;
  content: string;
  /** Total characters in the file. */
  totalChars: number;
  /** Where to continue reading, when the read stopped before the end. */
  nextOffset?: number;
}

export interface WorkspaceView {
  list(path?: string): Promise<WorkspaceEntry[]>;
  read(path: string, options?: { offset?: number; limit?: number }): Promise<WorkspaceReadResult>;
  write(path: string, content: string, mode?: 'replace' | 'append'): Promise<{ path: string; totalChars: number }>;
}
