import { describe, expect, test } from 'vitest';
import { settingsSchema } from '../../../../src/settings/schema';
import { readPageConnectionProfiles, type TabsAccess } from '../../../../src/ui/options/page-connection-profiles';
import { checkProfileDraft, draftFromProfile } from '../../../../src/ui/options/profile-draft';
import { builtInProfiles } from '../../../../src/profiles/built-in-profiles';

const settings = settingsSchema.parse({
  version: 1,
  sites: [
    { origin: 'http://127.0.0.1:8000', enabled: true, adapter: 'auto' },
    { origin: 'http://127.0.0.1:9000', enabled: false },
    { origin: 'http://127.0.0.1:7000', enabled: true, adapter: 'openai-chat' },
  ],
});

function tabsAnswering(answers: Record<string, unknown>): TabsAccess & { asked: string[] } {
  const tabs = Object.keys(answers).map((url, index) => ({ id: index + 1, url }));
  const asked: string[] = [];
  return {
    asked,
    query: async () => tabs,
    sendMessage: async (tabId) => {
      const url = tabs.find((tab) => tab.id === tabId)!.url;
      asked.push(url);
      const answer = answers[url];
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
}

describe("the options page reading the open SillyTavern page's connection profiles", () => {
  test('asks only tabs of sites that are on and may be SillyTavern, and shows what the first page with profiles said', async () => {
    const tabs = tabsAnswering({
      'http://127.0.0.1:9000/': { kind: 'profiles', profiles: [{ name: 'Off site' }] },
      'http://127.0.0.1:7000/chat': { kind: 'profiles', profiles: [{ name: 'OpenAI page' }] },
      'http://127.0.0.1:8000/': { kind: 'profiles', profiles: [{ name: 'Cheap', source: 'custom', model: 'cheap-model' }], presets: [{ name: 'Cold', sampling: { temperature: 0.1 } }] },
    });
    expect(await readPageConnectionProfiles(settings, tabs)).toEqual({
      kind: 'profiles',
      origin: 'http://127.0.0.1:8000',
      profiles: [{ name: 'Cheap', source: 'custom', model: 'cheap-model' }],
      presets: [{ name: 'Cold', sampling: { temperature: 0.1 } }],
    });
    expect(tabs.asked).toEqual(['http://127.0.0.1:8000/']);
  });

  test('ignores answers that fail the schema, and says when no page answered or none has a Connection Manager', async () => {
    expect(await readPageConnectionProfiles(settings, tabsAnswering({ 'http://127.0.0.1:8000/': { kind: 'profiles', profiles: [{ name: 'x', id: 'leak' }] } }))).toEqual({ kind: 'no-page' });
    expect(await readPageConnectionProfiles(settings, tabsAnswering({ 'http://127.0.0.1:8000/': new Error('no receiver') }))).toEqual({ kind: 'no-page' });
    expect(await readPageConnectionProfiles(settings, tabsAnswering({ 'http://127.0.0.1:8000/': { kind: 'no-connection-manager' } }))).toEqual({
      kind: 'no-connection-manager',
      origin: 'http://127.0.0.1:8000',
    });
  });
});

describe("the profile form's connection profile binding", () => {
  test('saves the profile name (trimmed) and loads it back', () => {
    const critic = builtInProfiles.find((profile) => profile.id === 'scene-critic')!;
    const draft = { ...draftFromProfile(critic), binding: 'hostProfile' as const, profileName: '  Cheap helper ', model: 'ignored-model' };
    const checked = checkProfileDraft(draft, settings);
    expect(checked.ok && checked.profile.model).toEqual({ binding: 'hostProfile', profileName: 'Cheap helper' });
    expect(checked.ok && draftFromProfile(checked.profile)).toMatchObject({ binding: 'hostProfile', profileName: 'Cheap helper', model: '' });
  });

  test('refuses an empty profile name on its field', () => {
    const critic = builtInProfiles.find((profile) => profile.id === 'scene-critic')!;
    const checked = checkProfileDraft({ ...draftFromProfile(critic), binding: 'hostProfile', profileName: ' ' }, settings);
    expect(checked.ok ? [] : checked.errors.map((issue) => issue.path)).toEqual(['model.profileName']);
  });
});
