import { describe, expect, test } from 'vitest';
import { builtInProfiles } from '../../../src/profiles/built-in-profiles';
import { DEFAULT_AGENT_FILE_TOOLS, exportAgentMarkdown, importAgentMarkdown } from '../../../src/settings/agent-markdown';
import { profileSchema } from '../../../src/settings/schema';

/** A Claude Code sub-agent file as its documentation shows them: tools as a comma-separated string. */
const claudeCodeReviewer = `---
name: code-reviewer
description: Expert code review specialist. Proactively reviews code for quality, security, and maintainability.
tools: Read, Grep, Glob, Bash
model: inherit
color: blue
---

You are a senior code reviewer ensuring high standards of code quality and security.

When invoked:
1. Run git diff to see recent changes
2. Focus on modified files
`;

function imported(fileName: string, text: string) {
  const result = importAgentMarkdown(fileName, text);
  if (!result.ok) throw new Error(`expected ${fileName} to import: ${result.errors.map((error) => error.message).join('; ')}`);
  return result;
}

describe('importing agent files', () => {
  test('a Claude Code agent becomes a host-bound profile; its unknown tools are listed back and ignored', () => {
    const actual = imported('code-reviewer.md', claudeCodeReviewer);

    expect(actual.profile).toMatchObject({
      id: 'code-reviewer',
      name: 'code-reviewer',
      description: 'Expert code review specialist. Proactively reviews code for quality, security, and maintainability.',
      model: { binding: 'host' },
      tools: { allow: [] },
    });
    expect(actual.profile.model).not.toHaveProperty('model');
    expect(actual.profile.systemPrompt).toBe(
      'You are a senior code reviewer ensuring high standards of code quality and security.\n\nWhen invoked:\n1. Run git diff to see recent changes\n2. Focus on modified files',
    );
    expect(actual.notes).toEqual([expect.stringContaining('code-reviewer.md: Retinue has no tools Read, Grep, Glob, Bash; ignored.')]);
  });

  test('tools as a YAML list, in canonical or provider spelling, map onto the allow-list; a model becomes the host model override', () => {
    const text = `---
name: Lore Keeper
description: Keeps the world's facts straight.
tools:
  - chat_read
  - workspace.read
  - WebSearch
model: gpt-4o-mini
---
Keep the facts.`;

    const actual = imported('lore.md', text);

    expect(actual.profile).toMatchObject({
      id: 'lore-keeper',
      name: 'Lore Keeper',
      model: { binding: 'host', model: 'gpt-4o-mini' },
      tools: { allow: ['chat.read', 'workspace.read'] },
    });
    expect(actual.notes).toEqual([expect.stringContaining('Retinue has no tool WebSearch; ignored.')]);
  });

  test('without tools an agent gets the helpers’ usual tools; a Claude model alias is pointed out', () => {
    const actual = imported('critic.md', '---\nname: critic\ndescription: Finds weak scenes.\nmodel: haiku\n---\nCritique the scene.\n');

    expect(actual.profile.tools.allow).toEqual(DEFAULT_AGENT_FILE_TOOLS);
    expect(actual.profile.model).toEqual({ binding: 'host', model: 'haiku' });
    expect(actual.notes).toEqual([expect.stringContaining("model 'haiku' is a Claude Code alias")]);
  });

  test('the retinue block binds a connection and sets budget, delegation and context', () => {
    const text = `---
name: researcher
description: Looks things up.
tools: workspace_write
model: qwen3-8b
retinue:
  name: Researcher
  connection: local
  sampling: { temperature: 0.2 }
  budget: { maxRounds: 4, maxToolCalls: 6, timeoutMs: 60000 }
  context: { recentChatMessages: 3 }
---
Research.`;

    const actual = imported('researcher.md', text);

    expect(actual.profile).toMatchObject({
      id: 'researcher',
      name: 'Researcher',
      model: { binding: 'connection', connectionId: 'local', model: 'qwen3-8b', sampling: { temperature: 0.2 } },
      budget: { maxRounds: 4, maxToolCalls: 6, timeoutMs: 60000 },
      context: { recentChatMessages: 3 },
    });
  });

  test('broken YAML is refused with the file and the line', () => {
    const text = '---\nname: critic\ndescription: [unclosed\n---\nBody';

    const actual = importAgentMarkdown('critic.md', text);

    expect(actual.ok).toBe(false);
    if (actual.ok) return;
    expect(actual.errors[0]?.message).toMatch(/^critic\.md, line \d+: the front matter is not valid YAML/);
  });

  test('a missing description, a wrong field type and no front matter at all are refused, naming file and field', () => {
    const noDescription = importAgentMarkdown('a.md', '---\nname: a\n---\nBody');
    const badBudget = importAgentMarkdown('b.md', '---\nname: b\ndescription: B.\nretinue:\n  budget: { maxRounds: "many" }\n---\nBody');
    const noFrontMatter = importAgentMarkdown('c.md', '# Just a prompt\n');
    const unknownRetinueField = importAgentMarkdown('d.md', '---\nname: d\ndescription: D.\nretinue:\n  colour: red\n---\nBody');

    const messages = [noDescription, badBudget, noFrontMatter, unknownRetinueField].map((result) => (result.ok ? 'imported' : result.errors[0]?.message));
    expect(messages[0]).toMatch(/^a\.md: description/);
    expect(messages[1]).toMatch(/^b\.md, line 4: retinue\.budget\.maxRounds/);
    expect(messages[2]).toBe('c.md, line 1: an agent file starts with a front matter block: a line "---", then name and description, then "---" and the prompt.');
    expect(messages[3]).toMatch(/^d\.md, line 4: retinue\.colour: unknown field/);
  });
});

describe('exporting agent files', () => {
  test.each(builtInProfiles.map((profile) => [profile.id, profile] as const))('the built-in %s round-trips to the same profile', (_id, profile) => {
    const actual = imported(`${profile.id}.md`, exportAgentMarkdown(profile));

    expect(actual.profile).toEqual(profile);
    expect(actual.notes).toEqual([]);
  });

  test('a connection-bound profile with a model, sampling and no tools round-trips', () => {
    const profile = profileSchema.parse({
      id: 'summariser',
      name: 'Summariser: short',
      description: 'Summarises long chats.',
      systemPrompt: 'Summarise.\n\n---\n\nKeep it short.',
      model: { binding: 'connection', connectionId: 'cheap', model: 'small-model', sampling: { temperature: 0.3, max_tokens: 400 } },
      tools: { allow: [] },
      budget: { maxRounds: 2, maxToolCalls: 0 },
    });

    const text = exportAgentMarkdown(profile);

    expect(text.startsWith('---\nname: summariser\n')).toBe(true);
    expect(imported('summariser.md', text).profile).toEqual(profile);
  });

  test('a profile whose results wait for review keeps review "ask" through the retinue block', () => {
    const profile = profileSchema.parse({ id: 'critic', name: 'critic', description: 'Critiques.', systemPrompt: 'Critique.', review: 'ask' });

    const text = exportAgentMarkdown(profile);

    expect(text).toMatch(/\nretinue:\n(?: {2}.*\n)* {2}review: ask\n/);
    expect(imported('critic.md', text).profile).toEqual(profile);
    expect(imported('critic.md', text.replace('  review: ask\n', '')).profile.review).toBe('none');
    expect(importAgentMarkdown('c.md', text.replace('review: ask', 'review: always')).ok).toBe(false);
  });

  test('a helper’s cadence rides in the retinue block as `runs`, and a file without one runs when asked', () => {
    const profile = profileSchema.parse({ id: 'tracker', name: 'tracker', description: 'Tracks state.', systemPrompt: 'Track.', runs: 'every 3 turns' });

    const text = exportAgentMarkdown(profile);

    expect(text).toMatch(/\nretinue:\n(?: {2}.*\n)* {2}runs: every 3 turns\n/);
    expect(imported('tracker.md', text).profile).toEqual(profile);
    expect(imported('tracker.md', text.replace('  runs: every 3 turns\n', '')).profile.runs).toBe('when asked');
    expect(exportAgentMarkdown(profileSchema.parse({ ...profile, runs: 'when asked' }))).not.toContain('runs:');
    const refused = importAgentMarkdown('t.md', text.replace('every 3 turns', 'every 1 turns'));
    expect(refused.ok).toBe(false);
    expect(JSON.stringify(refused)).toContain('every N turns');
  });
});
