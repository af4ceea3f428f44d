import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { HostContractError, ModelBehaviorError } from '../../../src/errors';
import type { RunStore } from '../../../src/store/run-store';
import { createChildWorkspaceView, resolveChildArtifactPath } from '../../../src/workspace/child-view';
import { childResultPath } from '../../../src/workspace/layout';
import type { RunWorkspace } from '../../../src/workspace/run-workspace';
import type { WorkspaceView } from '../../../src/workspace/workspace-view';
import { openTestWorkspace, physicalPaths, rejectionOf } from '../../support/workspace-fixture';

const KEY = 'scene-critic';
let store: RunStore;
let workspace: RunWorkspace;
let child: WorkspaceView;
beforeEach(async () => {
  ({ store, workspace } = await openTestWorkspace());
  child = createChildWorkspaceView({ workspace, workspaceKey: KEY });
  // The root's notes, a sibling's notes and result, and the child's own earlier note.
  await workspace.write('summaries/plan.md', 'root plan');
  await workspace.write('summaries/characters/mara.md', 'Mara');
  await workspace.write('summaries/agents/researcher/result.md', 'research result');
  await workspace.write('summaries/agents/scene-critic/earlier.md', 'mine');
  await workspace.write('scratch/agents/researcher/tmp.md', 'their scratch');
  await workspace.write('output/reply.md', 'draft reply');
  await workspace.write('input/prompt-snapshot.json', '{}');
});
afterEach(() => store.close());

async function refusal(promise: Promise<unknown>): Promise<ModelBehaviorError> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(ModelBehaviorError);
  return error as ModelBehaviorError;
}

describe('the top of the view', () => {
  test('lists summaries/ and scratch/ only', async () => {
    expect(await child.list('')).toEqual([
      { path: 'scratch/', kind: 'folder' },
      { path: 'summaries/', kind: 'folder' },
    ]);
    expect(await child.list()).toEqual(await child.list('./'));
  });

  test('is a folder: not readable or writable', async () => {
    expect((await refusal(child.read(''))).code).toBe('workspace-is-folder');
    expect((await refusal(child.write('', 'x'))).code).toBe('workspace-is-folder');
  });
});

describe('row: summaries/ is summaries/agents/<key>/, read and write', () => {
  test('listing shows the own files and the read-only folders parent/ and agents/', async () => {
    expect(await child.list('summaries/')).toEqual([
      { path: 'summaries/agents/', kind: 'folder' },
      { path: 'summaries/earlier.md', kind: 'file', size: 4 },
      { path: 'summaries/parent/', kind: 'folder' },
    ]);
  });

  test('writes land in the own folder and read back under the virtual path', async () => {
    expect(await child.write('summaries/notes.md', 'first')).toEqual({ path: 'summaries/notes.md', totalChars: 5 });
    await child.write('summaries/notes.md', ' second', 'append');
    await child.write('summaries/deep/er.md', 'deep');
    expect(await child.read('summaries/notes.md')).toEqual({ path: 'summaries/notes.md', content: 'first second', totalChars: 12 });
    expect(await workspace.readText('summaries/agents/scene-critic/notes.md')).toBe('first second');
    expect(await workspace.readText('summaries/agents/scene-critic/deep/er.md')).toBe('deep');
    expect(await child.list('summaries/deep')).toEqual([{ path: 'summaries/deep/er.md', kind: 'file', size: 4 }]);
    expect(await workspace.readText('summaries/notes.md')).toBeUndefined();
  });

  test('summaries/result.md is written by task_return alone', async () => {
    const error = await refusal(child.write('summaries/result.md', 'my result'));
    expect(error.code).toBe('workspace-result-reserved');
    expect(error.message).toContain('task_return');
    expect(error.message).toContain('"summaries/notes.md"');
    expect(await workspace.readText(childResultPath(KEY))).toBeUndefined();
    // Once the runtime has written it, the child can read it like any own file.
    await workspace.write(childResultPath(KEY), 'the result');
    expect((await child.read('summaries/result.md')).content).toBe('the result');
    expect((await refusal(child.write('./summaries/result.md', 'x', 'append'))).code).toBe('workspace-result-reserved');
    expect((await refusal(child.write('summaries/result.md/inner.md', 'x'))).code).toBe('workspace-result-reserved');
  });
});

describe('row: scratch/ is scratch/agents/<key>/, read and write', () => {
  test('writes land in the own scratch folder; siblings scratch stays invisible', async () => {
    expect(await child.list('scratch/')).toEqual([]);
    await child.write('scratch/tmp.md', 'mine');
    expect(await child.list('scratch')).toEqual([{ path: 'scratch/tmp.md', kind: 'file', size: 4 }]);
    expect(await workspace.readText('scratch/agents/scene-critic/tmp.md')).toBe('mine');
    expect(await workspace.readText('scratch/agents/researcher/tmp.md')).toBe('their scratch');
  });
});

describe('row: summaries/parent/ is summaries/ without agents/, read-only', () => {
  test('lists and reads the parent notes, without agents/', async () => {
    expect(await child.list('summaries/parent/')).toEqual([
      { path: 'summaries/parent/characters/', kind: 'folder' },
      { path: 'summaries/parent/plan.md', kind: 'file', size: 9 },
    ]);
    expect(await child.read('summaries/parent/plan.md')).toEqual({ path: 'summaries/parent/plan.md', content: 'root plan', totalChars: 9 });
    expect((await child.read('summaries/parent/characters/mara.md')).content).toBe('Mara');
  });

  test('refuses writes, saying where to write', async () => {
    const before = await physicalPaths(workspace);
    for (const path of ['summaries/parent/plan.md', 'summaries/parent/new.md', 'summaries/parent']) {
      const error = await refusal(child.write(path, 'x'));
      expect(error.code).toBe('workspace-read-only');
      expect(error.message).toContain('Keep your own notes in summaries/ or scratch/');
    }
    expect(await physicalPaths(workspace)).toEqual(before);
  });

  test('summaries/parent/agents/... is refused, pointing to summaries/agents/', async () => {
    for (const [path, attempt] of [
      ['summaries/parent/agents/', () => child.list('summaries/parent/agents/')],
      ['summaries/parent/agents/researcher/result.md', () => child.read('summaries/parent/agents/researcher/result.md')],
      ['summaries/parent/agents/x.md', () => child.write('summaries/parent/agents/x.md', 'x')],
    ] as const) {
      const error = await refusal(attempt());
      expect(error.code).toBe('workspace-path-refused');
      expect(error.message).toBe(
        `${JSON.stringify(path)} is not available in your workspace. Read the notes of other agents under summaries/agents/ instead.`,
      );
    }
  });
});

describe('row: summaries/agents/ is summaries/agents/ without itself, read-only', () => {
  test('lists and reads the other agents, never itself', async () => {
    expect(await child.list('summaries/agents/')).toEqual([{ path: 'summaries/agents/researcher/', kind: 'folder' }]);
    expect(await child.list('summaries/agents/researcher/')).toEqual([
      { path: 'summaries/agents/researcher/result.md', kind: 'file', size: 15 },
    ]);
    expect((await child.read('summaries/agents/researcher/result.md')).content).toBe('research result');
  });

  test('refuses writes', async () => {
    const error = await refusal(child.write('summaries/agents/researcher/result.md', 'forged'));
    expect(error.code).toBe('workspace-read-only');
    expect(error.message).toContain('holds the notes of other agents');
    expect(await workspace.readText('summaries/agents/researcher/result.md')).toBe('research result');
    expect((await refusal(child.write('summaries/agents/newcomer/notes.md', 'x'))).code).toBe('workspace-read-only');
  });

  test('summaries/agents/<self>/... is refused, pointing to summaries/...', async () => {
    const read = await refusal(child.read('summaries/agents/scene-critic/earlier.md'));
    expect(read.code).toBe('workspace-path-refused');
    expect(read.message).toBe(
      '"summaries/agents/scene-critic/earlier.md" is not available in your workspace. That is your own notes folder: use "summaries/earlier.md" instead.',
    );
    expect((await refusal(child.list('summaries/agents/scene-critic'))).message).toContain('use "summaries/" instead');
    expect((await refusal(child.write('summaries/agents/scene-critic/x.md', 'x'))).code).toBe('workspace-path-refused');
    // Its own summaries/ has no agents/ or parent/: pointing there would name the other areas (a fast-check seed found it).
    const aliased = await refusal(child.list('summaries/agents/scene-critic/agents/continuity-checker'));
    expect(aliased.message).toBe(
      '"summaries/agents/scene-critic/agents/continuity-checker" is not available in your workspace. That is your own notes folder named from outside: keep your notes directly in summaries/ (its parent/ and agents/ hold other agents\' notes).',
    );
  });
});

describe('outside the view', () => {
  test.each(['input/prompt-snapshot.json', 'output/reply.md', 'agent-results/', 'notes.md'])(
    '%j is not found, for list, read and write, with what the child can use',
    async (path) => {
      for (const attempt of [() => child.list(path), () => child.read(path), () => child.write(path, 'x')]) {
        const error = await refusal(attempt());
        expect(error.code).toBe('workspace-not-found');
        expect(error.message).toBe(
          `There is no ${JSON.stringify(path)} in your workspace. You can use summaries/ and scratch/, and read summaries/parent/ and summaries/agents/.`,
        );
      }
    },
  );

  test('missing files and folders are named by the path the child wrote', async () => {
    const missing = await refusal(child.read('summaries/nope.md'));
    expect(missing.message).toBe('There is no file "summaries/nope.md". List its folder with workspace_list to see what is there.');
    const missingFolder = await refusal(child.list('scratch/none/'));
    expect(missingFolder.message).toBe('There is no "scratch/none/" in your workspace. List scratch/ to see what is there.');
    const folder = await refusal(child.read('summaries/agents/researcher'));
    expect(folder.message).toContain('"summaries/agents/researcher"');
    await child.write('scratch/a/b.md', 'x');
    const notAFolder = await refusal(child.write('scratch/a/b.md/c.md', 'x'));
    expect(notAFolder.message).toBe('"scratch/a/b.md/c.md" cannot be written because "scratch/a/b.md" is a file, not a folder. Choose another path.');
    const overFolder = await refusal(child.write('scratch/a', 'x'));
    expect(overFolder.message).toContain('"scratch/a" is a folder');
  });
});

describe('artifact paths for task.return', () => {
  test('normalise to the virtual path and translate to the physical one', () => {
    expect(resolveChildArtifactPath(KEY, './summaries/notes.md')).toEqual({
      virtualPath: 'summaries/notes.md',
      physicalPath: 'summaries/agents/scene-critic/notes.md',
    });
    expect(resolveChildArtifactPath(KEY, 'scratch/draft.md').physicalPath).toBe('scratch/agents/scene-critic/draft.md');
    expect(resolveChildArtifactPath(KEY, 'summaries/parent/plan.md').physicalPath).toBe('summaries/plan.md');
    expect(resolveChildArtifactPath(KEY, 'summaries/agents/researcher/result.md').physicalPath).toBe(
      'summaries/agents/researcher/result.md',
    );
  });

  test.each(['summaries/', 'output/reply.md', '../x.md', 'summaries/agents/scene-critic/notes.md', 'summaries/parent/agents/x'])(
    '%j is refused with a model-facing error',
    (path) => {
      expect(() => resolveChildArtifactPath(KEY, path)).toThrow(ModelBehaviorError);
    },
  );
});

test('a workspace key that is not one folder name is a host-contract error', () => {
  for (const workspaceKey of ['', '..', 'a/b', 'x\\y']) {
    expect(() => createChildWorkspaceView({ workspace, workspaceKey })).toThrow(HostContractError);
  }
});
