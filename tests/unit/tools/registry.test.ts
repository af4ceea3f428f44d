import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { toProviderToolName } from '../../../src/model/tool-protocol';
import { isReadOnlyTool } from '../../../src/runtime/read-only-turns';
import { allowableToolNames } from '../../../src/settings/tool-names';
import { toolRegistry } from '../../../src/tools/registry';

const toolsFolder = join(__dirname, '../../../src/tools');
const notTools = new Set(['registry.ts', 'tool-definition.ts', 'tool-dispatcher.ts', 'lore-books.ts']);

test('every tool module is in the registry, under the name its file is named after', () => {
  const moduleNames = readdirSync(toolsFolder)
    .filter((file) => file.endsWith('.ts') && !notTools.has(file))
    .map((file) => file.replace(/\.ts$/, ''))
    .sort();
  const registered = Object.keys(toolRegistry)
    // Files are kebab-case: `chat.read_messages` lives in chat-read-messages.ts.
    .map((name) => name.replace('.', '-').replaceAll('_', '-'))
    .sort();

  expect(registered).toEqual(moduleNames);
});

test('the registry and src/settings/tool-names.ts agree (task.return is runtime-only)', () => {
  const expected = [...allowableToolNames, 'task.return'].sort();

  expect(Object.keys(toolRegistry).sort()).toEqual(expected);
});

test('every tool has a description for the model and its own canonical name', () => {
  for (const [name, tool] of Object.entries(toolRegistry)) {
    expect(tool.name).toBe(name);
    expect(tool.description.length, `${name} needs a description`).toBeGreaterThan(20);
    expect(tool.description).not.toMatch(/invocation|runtime|task id|run id/i);
  }
});

test('tool descriptions name other tools the way the model sees them', () => {
  const canonicalMentions = Object.values(toolRegistry).flatMap((tool) =>
    Object.keys(toolRegistry).filter((name) => tool.description.includes(name) && !tool.description.includes(toProviderToolName(name))),
  );

  expect(canonicalMentions).toEqual([]);
});

test('the tools that only read are those that change no record, and a model name outside the registry reads as one that may write', () => {
  const readOnly = Object.values(toolRegistry).filter((tool) => tool.readOnly === true).map((tool) => tool.name).sort();

  // A turn of these is stored with its results in one step (read-only-turns.ts): none may write a
  // file, a task or a proposal, hand a result over, or wait.
  expect(readOnly).toEqual(['agent.list', 'chat.read', 'chat.read_messages', 'chat.search', 'lore.list_activated', 'lore.read', 'lore.search', 'workspace.list', 'workspace.read']);
  expect(readOnly.every((name) => isReadOnlyTool(toProviderToolName(name)))).toBe(true);
  expect(['agent_await', 'workspace_write', 'constructor', '__proto__', 'workspace.list.x'].map(isReadOnlyTool)).toEqual([false, false, false, false, false]);
});
