import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ModelBehaviorError } from '../../../src/errors';
import type { RunStore } from '../../../src/store/run-store';
import { agentResultPath, childResultPath, PROMPT_SNAPSHOT_PATH } from '../../../src/workspace/layout';
import { createRootWorkspaceView } from '../../../src/workspace/root-view';
import type { RunWorkspace } from '../../../src/workspace/run-workspace';
import type { WorkspaceView } from '../../../src/workspace/workspace-view';
import { openTestWorkspace, physicalPaths, rejectionOf } from '../../support/workspace-fixture';

let store: RunStore;
let workspace: RunWorkspace;
let root: WorkspaceView;
beforeEach(async () => {
  ({ store, workspace } = await openTestWorkspace());
  root = createRootWorkspaceView(workspace, { agentId: 'root' });
  // What the runtime has written by the time the root looks.
  await workspace.write(PROMPT_SNAPSHOT_PATH, '{"messages":[]}');
  await workspace.write(childResultPath('scene-critic'), '# Critique\nFine.');
  await workspace.write('scratch/agents/scene-critic/draft.md', 'draft');
  await workspace.write(agentResultPath('invocation-42'), '{"status":"completed"}');
});
afterEach(() => store.close());

async function refusal(promise: Promise<unknown>): Promise<ModelBehaviorError> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(ModelBehaviorError);
  return error as ModelBehaviorError;
}

describe('what the root sees', () => {
  test('the top lists input/, memory/, output/, scratch/ and summaries/, never agent-results/', async () => {
    expect(await root.list()).toEqual([
      { path: 'input/', kind: 'folder' },
      { path: 'memory/', kind: 'folder' },
      { path: 'output/', kind: 'folder' },
      { path: 'scratch/', kind: 'folder' },
      { path: 'summaries/', kind: 'folder' },
    ]);
  });

  test('an empty top folder lists as empty', async () => {
    expect(await root.list('output/')).toEqual([]);
    expect(await root.list('output')).toEqual([]);
  });

  test('input/ holds the prompt snapshot, readable', async () => {
    expect(await root.list('input/')).toEqual([{ path: 'input/prompt-snapshot.json', kind: 'file', size: 15 }]);
    expect((await root.read('input/prompt-snapshot.json')).content).toBe('{"messages":[]}');
  });

  test("the delegated agents' notes are readable under summaries/agents/", async () => {
    expect(await root.list('summaries/')).toEqual([{ path: 'summaries/agents/', kind: 'folder' }]);
    expect(await root.list('summaries/agents/')).toEqual([{ path: 'summaries/agents/scene-critic/', kind: 'folder' }]);
    expect(await root.read('summaries/agents/scene-critic/result.md')).toMatchObject({ content: '# Critique\nFine.' });
  });

  test('the root writes and reads its own files in output/, scratch/ and summaries/', async () => {
    await root.write('output/reply.md', 'Once');
    await root.write('output/reply.md', ' upon', 'append');
    await root.write('scratch/ideas.md', 'idea');
    await root.write('./summaries/plan.md', 'plan');
    expect((await root.read('output/reply.md')).content).toBe('Once upon');
    expect(await root.list('summaries')).toEqual([
      { path: 'summaries/agents/', kind: 'folder' },
      { path: 'summaries/plan.md', kind: 'file', size: 4 },
    ]);
    expect(await root.list('output/reply.md')).toEqual([{ path: 'output/reply.md', kind: 'file', size: 9 }]);
  });
});

describe('what the root may not do', () => {
  test.each([
    ['input/prompt-snapshot.json', "input/ holds the page's request"],
    ['input/new.md', "input/ holds the page's request"],
    ['summaries/agents/scene-critic/result.md', 'summaries/agents/ holds the notes of the agents you delegated to'],
    ['summaries/agents/new-agent/notes.md', 'summaries/agents/ holds the notes of the agents you delegated to'],
    ['summaries/agents', 'summaries/agents/ holds the notes'],
    ['scratch/agents/scene-critic/draft.md', 'scratch/agents/ holds the scratch notes'],
  ])('writing %j is refused as read-only, saying why and where to write', async (path, reason) => {
    const before = await physicalPaths(workspace);
    const error = await refusal(root.write(path, 'x'));
    expect(error.code).toBe('workspace-read-only');
    expect(error.message).toContain(`"${path}" is read-only`);
    expect(error.message).toContain(reason);
    expect(await physicalPaths(workspace)).toEqual(before);
    expect(await workspace.readText(childResultPath('scene-critic'))).toBe('# Critique\nFine.');
  });

  test.each(['agent-results/', 'agent-results/invocation-42.json', 'notes.md', 'secrets/'])(
    '%j is not in the root view, for list, read and write',
    async (path) => {
      const before = await physicalPaths(workspace);
      for (const attempt of [() => root.list(path), () => root.read(path), () => root.write(path, 'x')]) {
        const error = await refusal(attempt());
        expect(error.code).toBe('workspace-not-found');
        // The same answer whether or not such a file exists physically: nothing about agent-results/ leaks.
        expect(error.message.startsWith(`There is no ${JSON.stringify(path)} in your workspace.`)).toBe(true);
        expect(error.message).toMatch(/output\/, scratch\/ (and|or) summaries\//);
      }
      expect(await physicalPaths(workspace)).toEqual(before);
    },
  );

  test('folders are listed, not read or written', async () => {
    expect((await refusal(root.read('summaries/agents/scene-critic/'))).code).toBe('workspace-is-folder');
    expect((await refusal(root.read('summaries'))).code).toBe('workspace-is-folder');
    expect((await refusal(root.read(''))).code).toBe('workspace-is-folder');
    expect((await refusal(root.write('output/', 'x'))).message).toContain('"output/notes.md"');
    expect((await refusal(root.write('output', 'x'))).code).toBe('workspace-is-folder');
    expect((await refusal(root.write('', 'x'))).code).toBe('workspace-is-folder');
  });

  test('a folder that does not exist is not found, with a hint', async () => {
    const error = await refusal(root.list('output/chapters/'));
    expect(error.code).toBe('workspace-not-found');
    expect(error.message).toContain('"output/chapters/"');
    expect(error.message).toContain('List output/');
  });

  test('bad paths are refused before anything is touched', async () => {
    for (const path of ['/output/x.md', 'output/../input/x', 'output\\x.md', 'output//x.md']) {
      expect((await refusal(root.write(path, 'x'))).code).toBe('workspace-path-invalid');
    }
  });
});
