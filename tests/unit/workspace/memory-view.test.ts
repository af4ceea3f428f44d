import { afterEach, beforeEach, expect, test } from 'vitest';
import { ModelBehaviorError } from '../../../src/errors';
import { MAX_MEMORY_CHARS, MAX_MEMORY_FILES } from '../../../src/records/memory-version';
import type { RunStore } from '../../../src/store/run-store';
import { createChildWorkspaceView, resolveChildArtifactPath } from '../../../src/workspace/child-view';
import { createRootWorkspaceView } from '../../../src/workspace/root-view';
import type { RunWorkspace } from '../../../src/workspace/run-workspace';
import { openTestWorkspace, physicalPaths, rejectionOf } from '../../support/workspace-fixture';

let store: RunStore;
let workspace: RunWorkspace;
beforeEach(async () => ({ store, workspace } = await openTestWorkspace()));
afterEach(() => store.close());

const tracker = () => createChildWorkspaceView({ workspace, workspaceKey: 'tracker-002', memoryAgentId: 'tracker' });
const root = () => createRootWorkspaceView(workspace, { agentId: 'root' });

async function refusal(promise: Promise<unknown>): Promise<ModelBehaviorError> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(ModelBehaviorError);
  return error as ModelBehaviorError;
}

test('a helper’s memory/ is its agent’s, whatever its task is called, and lists at the top of its view', async () => {
  expect((await tracker().list()).map((entry) => entry.path)).toEqual(['memory/', 'scratch/', 'summaries/']);
  expect(await tracker().write('memory/state.md', 'Knight: hall.')).toEqual({ path: 'memory/state.md', totalChars: 13 });
  expect(await physicalPaths(workspace)).toContain('memory/tracker/state.md');
  expect(await tracker().list('memory/')).toEqual([{ path: 'memory/state.md', kind: 'file', size: 13 }]);
  expect((await tracker().read('./memory/state.md')).content).toBe('Knight: hall.');
});

test('no agent sees another agent’s memory: the root’s memory/ is its own', async () => {
  await tracker().write('memory/state.md', 'Tracker only.');
  expect(await root().list('memory/')).toEqual([]);
  expect((await refusal(root().read('memory/state.md'))).message).toContain('There is no file "memory/state.md"');
  await root().write('memory/plan.md', 'Root only.');
  expect(await physicalPaths(workspace)).toContain('memory/root/plan.md');
  expect(await tracker().list('memory/')).toEqual([{ path: 'memory/state.md', kind: 'file', size: 13 }]);
});

test('a write past the memory cap, in characters or files, is refused with what to do and writes nothing', async () => {
  await tracker().write('memory/a.md', 'x'.repeat(MAX_MEMORY_CHARS - 5));
  const tooLong = await refusal(tracker().write('memory/b.md', 'y'.repeat(6)));
  expect(tooLong.code).toBe('workspace-folder-full');
  expect(tooLong.message).toBe(
    `"memory/b.md" was not written: your memory/ would hold ${MAX_MEMORY_CHARS + 1} characters, and it may hold at most ${MAX_MEMORY_CHARS} ` +
      `for this conversation (${MAX_MEMORY_CHARS - 5} are used by your other memory files). Keep memory short: replace a file with a condensed version, or write less.`,
  );
  // Replacing the big file with a short one fits again.
  await tracker().write('memory/a.md', 'short');
  for (let index = 1; index < MAX_MEMORY_FILES; index += 1) await tracker().write(`memory/n${index}.md`, '.');
  const tooMany = await refusal(tracker().write('memory/one-more.md', '.'));
  expect(tooMany.message).toContain(`may hold at most ${MAX_MEMORY_FILES} files`);
  expect(await physicalPaths(workspace)).not.toContain('memory/tracker/one-more.md');
  expect(await physicalPaths(workspace)).not.toContain('memory/tracker/b.md');
});

test('memory/ itself is a folder, and a memory file is no artifact for other agents', async () => {
  expect((await refusal(tracker().write('memory/', 'x'))).message).toContain('e.g. "memory/state.md"');
  expect((await refusal(tracker().read('memory'))).message).toContain('is a folder');
  expect(() => resolveChildArtifactPath({ workspaceKey: 'tracker-002', memoryAgentId: 'tracker' }, 'memory/state.md')).toThrow(/copy what they should read into summaries\//);
});

test('a view without an agent has no memory/ (and says so by what it offers)', async () => {
  const plain = createChildWorkspaceView({ workspace, workspaceKey: 'critic' });
  expect((await plain.list()).map((entry) => entry.path)).toEqual(['scratch/', 'summaries/']);
  expect((await refusal(plain.write('memory/state.md', 'x'))).message).toContain('You can use summaries/ and scratch/');
});
