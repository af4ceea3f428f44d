import { expect, test } from 'vitest';
import { exportAgentMarkdown, importAgentMarkdown } from '../../../src/settings/agent-markdown';
import { profileSchema } from '../../../src/settings/schema';

test('an agent file lists the chat tools in either spelling, and the export reads back the same', () => {
  const text = `---
name: Fact Finder
description: Finds where a fact was first told.
tools: chat_search, chat.read_messages, workspace_write
---
Search the chat.`;

  const imported = importAgentMarkdown('fact-finder.md', text);
  if (!imported.ok) throw new Error(JSON.stringify(imported.errors));

  expect(imported.profile.tools.allow).toEqual(['chat.search', 'chat.read_messages', 'workspace.write']);
  const again = importAgentMarkdown('fact-finder.md', exportAgentMarkdown(profileSchema.parse(imported.profile)));
  expect(again.ok && again.profile.tools.allow).toEqual(['chat.search', 'chat.read_messages', 'workspace.write']);
});
