import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { HostContractError, ModelBehaviorError } from '../../../src/errors';
import type { RunStore } from '../../../src/store/run-store';
import { agentResultPath, childResultPath, PROMPT_SNAPSHOT_PATH } from '../../../src/workspace/layout';
import { DEFAULT_READ_CHARS, MAX_FILE_CHARS, MAX_READ_CHARS, RunWorkspace } from '../../../src/workspace/run-workspace';
import { openTestWorkspace, physicalPaths, rejectionOf } from '../../support/workspace-fixture';

let store: RunStore;
let workspace: RunWorkspace;
beforeEach(async () => {
  ({ store, workspace } = await openTestWorkspace());
});
afterEach(() => store.close());

describe('read', () => {
  test('reads a whole short file, with its size and no nextOffset', async () => {
    await workspace.write('output/reply.md', 'Hello there.');
    expect(await workspace.read('output/reply.md')).toEqual({ path: 'output/reply.md', content: 'Hello there.', totalChars: 12 });
  });

  test('reads a slice by offset and limit, and says where to continue', async () => {
    await workspace.write('scratch/alphabet.txt', 'abcdefghij');
    expect(await workspace.read('scratch/alphabet.txt', { offset: 2, limit: 3 })).toEqual({
      path: 'scratch/alphabet.txt',
      content: 'cde',
      totalChars: 10,
      nextOffset: 5,
    });
    expect(await workspace.read('scratch/alphabet.txt', { offset: 5, limit: 100 })).toEqual({
      path: 'scratch/alphabet.txt',
      content: 'fghij',
      totalChars: 10,
    });
    expect((await workspace.read('scratch/alphabet.txt', { offset: 10 })).content).toBe('');
  });

  test('a long file is read in pages of DEFAULT_READ_CHARS, and limit is capped at MAX_READ_CHARS', async () => {
    const text = 'x'.repeat(MAX_READ_CHARS + 10);
    await workspace.write('scratch/long.txt', text);
    const first = await workspace.read('scratch/long.txt');
    expect([first.content.length, first.nextOffset]).toEqual([DEFAULT_READ_CHARS, DEFAULT_READ_CHARS]);
    const big = await workspace.read('scratch/long.txt', { limit: MAX_READ_CHARS * 5 });
    expect([big.content.length, big.nextOffset]).toEqual([MAX_READ_CHARS, MAX_READ_CHARS]);
  });

  test.each([
    [{ offset: 11 }, 'past its end'],
    [{ offset: -1 }, 'offset must be a whole number'],
    [{ offset: 1.5 }, 'offset must be a whole number'],
    [{ limit: 0 }, 'limit must be a whole number of at least 1'],
  ])('a bad range %j is refused (%s)', async (range, message) => {
    await workspace.write('scratch/alphabet.txt', 'abcdefghij');
    const error = await rejectionOf(workspace.read('scratch/alphabet.txt', range));
    expect(error).toBeInstanceOf(ModelBehaviorError);
    expect(error.message).toContain(message);
  });

  test('a missing file and a folder are told apart, under the shown name', async () => {
    await workspace.write('summaries/agents/critic/notes.md', 'n');
    const missing = await rejectionOf(workspace.read('summaries/agents/critic/nope.md', { shownAs: 'summaries/nope.md' }));
    expect(missing.message).toBe('There is no file "summaries/nope.md". List its folder with workspace_list to see what is there.');
    const folder = await rejectionOf(workspace.read('summaries/agents/critic', { shownAs: 'summaries' }));
    expect((folder as ModelBehaviorError).code).toBe('workspace-is-folder');
    expect(folder.message).not.toContain('agents');
  });
});

describe('write', () => {
  test('replace overwrites and append adds to the end, creating the file when absent', async () => {
    expect(await workspace.write('scratch/log.md', 'one', { mode: 'append' })).toEqual({ path: 'scratch/log.md', totalChars: 3 });
    await workspace.write('scratch/log.md', ' two', { mode: 'append' });
    expect(await workspace.readText('scratch/log.md')).toBe('one two');
    await workspace.write('scratch/log.md', 'fresh');
    expect(await workspace.readText('scratch/log.md')).toBe('fresh');
    expect((await store.readFile('run-1', 'scratch/log.md'))?.updatedAt).toBe(42);
  });

  test('parallel appends to one file all land', async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, index) => workspace.write('scratch/log.md', `${index};`, { mode: 'append', writer: 'agent' })),
    );
    const parts = (await workspace.readText('scratch/log.md'))?.split(';').filter(Boolean);
    expect(parts?.sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 20 }, (_, index) => String(index)));
  });

  test('an agent file over MAX_FILE_CHARS is refused and nothing changes; append counts the existing text', async () => {
    const tooLong = await rejectionOf(workspace.write('scratch/big.md', 'x'.repeat(MAX_FILE_CHARS + 1), { writer: 'agent' }));
    expect(tooLong).toBeInstanceOf(ModelBehaviorError);
    expect(tooLong.message).toContain(`at most ${MAX_FILE_CHARS}`);
    expect(await workspace.readText('scratch/big.md')).toBeUndefined();

    await workspace.write('scratch/big.md', 'x'.repeat(MAX_FILE_CHARS), { writer: 'agent' });
    const overflow = await rejectionOf(workspace.write('scratch/big.md', 'y', { mode: 'append', writer: 'agent' }));
    expect((overflow as ModelBehaviorError).code).toBe('workspace-file-too-large');
    expect(await workspace.readText('scratch/big.md')).toHaveLength(MAX_FILE_CHARS);
  });

  test('the runtime may write larger files (the prompt snapshot), up to its own cap', async () => {
    await workspace.write(PROMPT_SNAPSHOT_PATH, 'x'.repeat(MAX_FILE_CHARS * 2));
    expect(await workspace.readText(PROMPT_SNAPSHOT_PATH)).toHaveLength(MAX_FILE_CHARS * 2);
    const small = new RunWorkspace({ store, runId: 'run-1', limits: { maxRuntimeFileChars: 10 } });
    expect(await rejectionOf(small.write('output/x.md', 'x'.repeat(11)))).toBeInstanceOf(HostContractError);
  });

  test('agent writes stop at the run cap; input/ does not count, other files do', async () => {
    const limited = new RunWorkspace({ store, runId: 'run-1', limits: { maxFileChars: 100, maxRunChars: 150 } });
    await limited.write(PROMPT_SNAPSHOT_PATH, 'i'.repeat(1_000));
    await limited.write('scratch/a.md', 'a'.repeat(100), { writer: 'agent' });
    const full = await rejectionOf(limited.write('scratch/b.md', 'b'.repeat(60), { writer: 'agent' }));
    expect((full as ModelBehaviorError).code).toBe('workspace-full');
    expect(full.message).toContain('"scratch/b.md" was not written');
    // Replacing a file counts its new size, not old plus new.
    await limited.write('scratch/a.md', 'a'.repeat(90), { writer: 'agent' });
    await limited.write('scratch/b.md', 'b'.repeat(60), { writer: 'agent' });
    expect(await physicalPaths(limited)).toEqual(['input/prompt-snapshot.json', 'scratch/a.md', 'scratch/b.md']);
  });

  test('a file cannot go inside a file, nor replace a folder', async () => {
    await workspace.write('output/draft', 'd');
    const inside = await rejectionOf(
      workspace.write('output/draft/part.md', 'p', { shownAs: 'output/draft/part.md', writer: 'agent' }),
    );
    expect(inside.message).toContain('"output/draft" is a file, not a folder');
    await workspace.write('output/chapters/one.md', '1');
    const overFolder = await rejectionOf(workspace.write('output/chapters', 'x', { writer: 'agent' }));
    expect((overFolder as ModelBehaviorError).code).toBe('workspace-is-folder');
  });

  test("a write reads the run's files once, and not the page's chat, to check where it goes and what it costs, in the transaction that writes it", async () => {
    const reads: { method: string; except?: string }[] = [];
    const counting = new Proxy(store, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (property !== 'readFile' && property !== 'listFiles' && property !== 'writeFile' && property !== 'writeFileChecked') return value;
        return (...args: unknown[]) => {
          const except = (property === 'writeFileChecked' ? args[1] : args[2]) as { folder?: string } | undefined;
          reads.push({ method: property, ...(except?.folder ? { except: except.folder } : {}) });
          return (value as (...parameters: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const counted = new RunWorkspace({ store: counting, runId: 'run-1', limits: { maxFileChars: 100, maxRunChars: 150 } });
    await counted.write(PROMPT_SNAPSHOT_PATH, 'i'.repeat(1_000));
    await counted.write('input', 'a file named like the folder, which counts', { writer: 'agent' });
    reads.length = 0;

    await counted.write('scratch/agents/critic/notes.md', 'n'.repeat(60), { writer: 'agent' });
    const full = await rejectionOf(counted.write('scratch/agents/critic/more.md', 'm'.repeat(60), { writer: 'agent' }));

    expect(reads).toEqual([
      { method: 'writeFileChecked', except: 'input/' },
      { method: 'writeFileChecked', except: 'input/' },
    ]);
    expect(full.message).toContain('(102 of 150 characters used)');
    expect(await rejectionOf(counted.write('input/prompt-snapshot.json/x', 'x'))).toBeInstanceOf(ModelBehaviorError);
  });

  test('several files written together land in one step, or none when one of them is refused', async () => {
    const steps: unknown[] = [];
    const counting = new Proxy(store, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (property !== 'saveStep') return value;
        return (step: unknown) => {
          steps.push(step);
          return (value as (step: unknown) => unknown).call(target, step);
        };
      },
    });
    const together = new RunWorkspace({ store: counting, runId: 'run-1' });
    await together.write('output/draft', 'd');

    await together.writeFiles([
      { path: 'agent-results/child-1.json', content: '{}' },
      { path: 'summaries/agents/critic/result.md', content: 'Found it.' },
    ]);
    const refused = await rejectionOf(together.writeFiles([{ path: 'output/fine.md', content: 'f' }, { path: 'output/draft/part.md', content: 'p' }]));

    expect(steps).toHaveLength(1);
    expect(refused.message).toContain('"output/draft" is a file, not a folder');
    expect(await physicalPaths(together)).toEqual(['agent-results/child-1.json', 'output/draft', 'summaries/agents/critic/result.md']);
  });

  test('the runtime must hand in normalised file paths', async () => {
    for (const bad of ['../escape.md', 'output/', './output/x.md', 'output//x.md']) {
      expect(await rejectionOf(workspace.write(bad, 'x'))).toBeInstanceOf(HostContractError);
    }
    expect(await physicalPaths(workspace)).toEqual([]);
  });
});

describe('listing and layout', () => {
  test('listFolder gives the immediate files and folders, sorted', async () => {
    await workspace.write('summaries/plan.md', 'plan');
    await workspace.write(childResultPath('critic'), 'result');
    await workspace.write(agentResultPath('invocation-7'), '{}');
    expect(await workspace.listFolder('summaries/')).toEqual([
      { name: 'agents', kind: 'folder' },
      { name: 'plan.md', kind: 'file', size: 4 },
    ]);
    expect((await workspace.listFolder('')).map((entry) => entry.name)).toEqual(['agent-results', 'summaries']);
    expect(await physicalPaths(workspace)).toEqual([
      'agent-results/invocation-7.json',
      'summaries/agents/critic/result.md',
      'summaries/plan.md',
    ]);
  });

  test('layout helpers refuse names that would escape their folder', () => {
    expect(() => childResultPath('../input')).toThrow(HostContractError);
    expect(() => childResultPath('a/b')).toThrow(HostContractError);
    expect(() => agentResultPath('x/../../y')).toThrow(HostContractError);
  });
});
