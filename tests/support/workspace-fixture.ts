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

/**
 * The forms of a path an agent wrote that an answer may echo back: as written, and tidied the way
 * the workspace tidies it (`.` names dropped, so "scratch/./agents/" is shown as "scratch/agents/").
 * A text the agent wrote itself is not a leak when it comes back in either form.
 */
export function echoedForms(written: string): [string, string] {
  return [written, written.split('/').filter((name) => name !== '.').join('/')];
}

/** True when the agent wrote `text` itself, in the path as given or as the workspace tidies it. */
export function agentWrote(written: string, text: string): boolean {
  return echoedForms(written).some((form) => form.includes(text));
}
