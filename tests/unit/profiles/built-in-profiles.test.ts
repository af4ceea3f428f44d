import { describe, expect, test } from 'vitest';
import { builtInProfiles, resolveProfiles } from '../../../src/profiles/built-in-profiles';
import { importSettings } from '../../../src/settings/import-export';
import { profileSchema, type AgentProfile } from '../../../src/settings/schema';
import { allowableToolNames } from '../../../src/settings/tool-names';

const byId = (profiles: AgentProfile[], id: string) => profiles.find((profile) => profile.id === id);

describe('built-in profiles', () => {
  test('there is a root and at least four return-mode agents', () => {
    const root = byId([...builtInProfiles], 'root');
    const callable = builtInProfiles.filter((profile) => profile.delegation.callable);

    expect(root?.delegation).toMatchObject({ canDelegate: true, callable: false });
    expect(root?.tools.allow).toEqual(
      expect.arrayContaining(['agent.list', 'agent.delegate', 'agent.await', 'workspace.read', 'workspace.write']),
    );
    expect(callable.length).toBeGreaterThanOrEqual(4);
    expect(callable.every((profile) => !profile.delegation.canDelegate)).toBe(true);
  });

  test.each(builtInProfiles.map((profile) => [profile.id, profile] as const))('%s validates, is described, prompted and bound to the host', (_id, profile) => {
    expect(profileSchema.parse(profile)).toEqual(profile);
    expect(profile.description.length).toBeGreaterThan(60);
    expect(profile.systemPrompt.length).toBeGreaterThan(300);
    expect(profile.model.binding).toBe('host');
    expect(profile.budget.maxRounds).toBeGreaterThan(0);
    for (const tool of profile.tools.allow) expect(allowableToolNames).toContain(tool);
  });

  test.each(builtInProfiles.filter((profile) => profile.delegation.callable).map((profile) => [profile.id, profile] as const))(
    '%s has a timeout and never gets delegation or root-only tools',
    (_id, profile) => {
      expect(profile.budget.timeoutMs).toBeGreaterThan(0);
      expect(profile.tools.allow.filter((tool) => tool.startsWith('agent.') || tool === 'workspace.commit' || tool === 'workspace.finish')).toEqual([]);
    },
  );

  test('model-facing text carries no runtime ids or physical workspace paths', () => {
    for (const profile of builtInProfiles) {
      const text = `${profile.description}\n${profile.systemPrompt}`;
      expect(text, profile.id).not.toMatch(/scratch\/agents\/|agent-results\/|invocation|runId|[0-9a-f]{8}-[0-9a-f]{4}/i);
    }
  });

  test.each(['continuity-checker', 'researcher'])('%s looks things up in the chat and cites message numbers', (id) => {
    const profile = byId([...builtInProfiles], id) as AgentProfile;

    expect(profile.tools.allow).toEqual(expect.arrayContaining(['chat.search', 'chat.read_messages']));
    expect(profile.systemPrompt).toContain('chat_search');
    expect(profile.systemPrompt).toContain('chat_read_messages');
    expect(profile.systemPrompt).toMatch(/message number|by number/);
  });

  test('ids are unique', () => {
    const ids = builtInProfiles.map((profile) => profile.id);

    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('resolving the profiles in effect', () => {
  test('with no document profiles, the built-ins are in effect', () => {
    expect(resolveProfiles({ profiles: [] })).toEqual(builtInProfiles);
  });

  test('a document profile with a built-in id overrides it in place; others are added after the built-ins', () => {
    const imported = importSettings(
      JSON.stringify({
        version: 1,
        profiles: [
          { id: 'poet', name: 'Poet', description: 'Writes poems.', systemPrompt: 'You write poems.' },
          { id: 'scene-critic', name: 'Harsh critic', description: 'A harsher critic.', systemPrompt: 'Be harsh.' },
        ],
      }),
    );
    if (!imported.ok) throw new Error(JSON.stringify(imported.errors));

    const actual = resolveProfiles(imported.settings);

    expect(actual.map((profile) => profile.id)).toEqual([...builtInProfiles.map((profile) => profile.id), 'poet']);
    expect(byId(actual, 'scene-critic')?.name).toBe('Harsh critic');
    expect(byId(actual, 'scene-critic')?.systemPrompt).toBe('Be harsh.');
    expect(byId(actual, 'root')).toEqual(byId([...builtInProfiles], 'root'));
  });
});
