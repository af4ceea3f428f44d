import { openRunStore } from '../../src/store/idb-run-store';
import type { RunStore } from '../../src/store/run-store';
import { RunWorkspace, type WorkspaceLimits } from '../../src/workspace/run-workspace';
import { uniqueDatabaseName } from './record-builders';

/** A fresh store and the physical workspace of run `run-1` in it; close the store at the end. */
export async function openTestWorkspace(limits?: Partial<WorkspaceLimits>): Promise<{ store: RunStore; workspace: RunWorkspace }> {
  const store = await openRunStore({ name: uniqueDatabaseName() });
  return { store, workspace: new RunWorkspace({ store, runId: 'run-1', now: () => 42, limits }) };
}

/** Every physical path of the run, sorted. */
export async function physicalPaths(workspace: RunWorkspace): Promise<string[]> {
  return (await workspace.list()).map((file) => file.path);
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`rejected with a non-error: ${String(error)}`, { cause: error });
  }
  throw new Error('expected a rejection, but it resolved');
}
