import { describe, expect, test } from 'vitest';
import { ModelBehaviorError } from '../../../src/errors';
import {
  MAX_PATH_CHARS,
  MAX_PATH_SEGMENTS,
  normalizeWorkspaceFilePath,
  normalizeWorkspacePath,
} from '../../../src/workspace/paths';

describe('normalizeWorkspacePath accepts', () => {
  test.each([
    ['summaries/notes.md', ['summaries', 'notes.md'], false, 'summaries/notes.md'],
    ['scratch/', ['scratch'], true, 'scratch/'],
    ['./summaries/./notes.md', ['summaries', 'notes.md'], false, 'summaries/notes.md'],
    ['', [], true, ''],
    ['.', [], true, ''],
    ['./', [], true, ''],
    ['output/my draft (v2).md', ['output', 'my draft (v2).md'], false, 'output/my draft (v2).md'],
    ['summaries/笔记.md', ['summaries', '笔记.md'], false, 'summaries/笔记.md'],
    ['summaries/...', ['summaries', '...'], false, 'summaries/...'],
  ])('%j as %j', (input, segments, isFolder, path) => {
    expect(normalizeWorkspacePath(input)).toEqual({ segments, isFolder, path });
  });
});

describe('normalizeWorkspacePath refuses', () => {
  test.each([
    ['/summaries/notes.md', 'absolute'],
    ['/', 'absolute'],
    ['~/notes.md', 'absolute'],
    ['C:/notes.md', 'absolute'],
    ['summaries/../input/x', '".."'],
    ['..', '".."'],
    ['summaries\\notes.md', 'backslash'],
    ['summaries//notes.md', 'empty name'],
    ['summaries/notes.md//', 'empty name'],
    ['summaries/\u0000notes.md', 'control or invisible'],
    ['summaries/notes\n.md', 'control or invisible'],
    ['summaries/\u202enotes.md', 'control or invisible'],
    ['summaries/ notes.md', 'space'],
    ['summaries/notes.md ', 'space'],
    [`summaries/${'a'.repeat(MAX_PATH_CHARS)}`, `longer than ${MAX_PATH_CHARS}`],
    [`${Array.from({ length: MAX_PATH_SEGMENTS + 1 }, () => 'a').join('/')}`, `more than ${MAX_PATH_SEGMENTS} folders deep`],
  ])('%j (%s), naming the path as written and how to write it', (input, problem) => {
    let caught: unknown;
    try {
      normalizeWorkspacePath(input);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ModelBehaviorError);
    const message = (caught as ModelBehaviorError).message;
    expect(message).toContain(problem);
    expect(message).toContain(JSON.stringify(input.length > 120 ? input.slice(0, 117) : input).slice(0, -1));
    expect(message).toContain('summaries/notes.md');
    expect((caught as ModelBehaviorError).code).toBe('workspace-path-invalid');
  });

  test('a path of exactly the limits is still accepted', () => {
    const path = Array.from({ length: MAX_PATH_SEGMENTS }, () => 'a').join('/');
    expect(normalizeWorkspacePath(path).segments).toHaveLength(MAX_PATH_SEGMENTS);
    expect(normalizeWorkspacePath('a'.repeat(MAX_PATH_CHARS)).path).toHaveLength(MAX_PATH_CHARS);
  });
});

test('normalizeWorkspaceFilePath refuses a folder and suggests a file inside it', () => {
  expect(normalizeWorkspaceFilePath('./summaries/notes.md').path).toBe('summaries/notes.md');
  expect(() => normalizeWorkspaceFilePath('summaries/')).toThrow(/names a folder.*"summaries\/notes\.md"/);
  expect(() => normalizeWorkspaceFilePath('')).toThrow(ModelBehaviorError);
});
