import { describe, expect, test } from 'vitest';
import { listConnectionProfiles, profileCallFields as classifyProfile } from '../../../../src/hosts/sillytavern/connection-profiles';
import { readTavernProfiles } from '../../../../src/page-hook/sillytavern-page';

/** What the bridge makes of a profile, from what the page hook reads of the page (as it runs: read in the page, classified in the bridge). */
const profileCallFields = (page: Window, name: string) => classifyProfile(readTavernProfiles(page), name);

/** A page whose `SillyTavern.getContext()` holds these profiles, shaped as SillyTavern 1.18 keeps them. */
function pageWith(profiles: unknown[], extra: { disabledExtensions?: string[]; withoutApiMap?: boolean } = {}): Window {
  const apiMap = {
    openai: { selected: 'openai', source: 'openai' },
    custom: { selected: 'openai', source: 'custom' },
    openrouter: { selected: 'openai', source: 'openrouter' },
    claude: { selected: 'openai', source: 'claude' },
    google: { selected: 'openai', source: 'makersuite' },
    koboldcpp: { selected: 'textgenerationwebui', type: 'koboldcpp' },
  };
  return {
    SillyTavern: {
      getContext: () => ({
        extensionSettings: { disabledExtensions: extra.disabledExtensions ?? [], connectionManager: { selectedProfile: null, profiles } },
        ...(extra.withoutApiMap ? {} : { CONNECT_API_MAP: apiMap }),
      }),
    },
  } as unknown as Window;
}

const cheap = {
  id: 'c0ffee00-1111',
  mode: 'cc',
  name: 'Cheap',
  api: 'openrouter',
  preset: 'Default',
  model: 'deepseek/deepseek-chat',
  proxy: 'None',
  'secret-id': 'secret-7',
  'prompt-post-processing': 'merge',
};

describe('the generate fields of a call on a connection profile', () => {
  test("carry the profile's source (through CONNECT_API_MAP), model, secret id and prompt post-processing; nothing of the page's own connection", () => {
    expect(profileCallFields(pageWith([cheap]), 'Cheap')).toEqual({
      ok: true,
      source: 'openrouter',
      model: 'deepseek/deepseek-chat',
      fields: { chat_completion_source: 'openrouter', model: 'deepseek/deepseek-chat', secret_id: 'secret-7', custom_prompt_post_processing: 'merge' },
    });
  });

  test("put the profile's server URL under every source's URL field, as SillyTavern does", () => {
    const custom = { ...cheap, name: 'Local', api: 'custom', model: 'qwen3-8b', 'api-url': 'http://127.0.0.1:8080/v1', 'secret-id': undefined, 'prompt-post-processing': '' };
    const result = profileCallFields(pageWith([custom]), 'Local');
    expect(result).toEqual({
      ok: true,
      source: 'custom',
      model: 'qwen3-8b',
      fields: {
        chat_completion_source: 'custom',
        model: 'qwen3-8b',
        custom_url: 'http://127.0.0.1:8080/v1',
        vertexai_region: 'http://127.0.0.1:8080/v1',
        zai_endpoint: 'http://127.0.0.1:8080/v1',
        siliconflow_endpoint: 'http://127.0.0.1:8080/v1',
        minimax_endpoint: 'http://127.0.0.1:8080/v1',
      },
    });
  });

  test('find the profile by its exact name, not its id', () => {
    expect(profileCallFields(pageWith([cheap]), 'c0ffee00-1111')).toEqual({ ok: false, refusal: 'profile-missing' });
    expect(profileCallFields(pageWith([cheap]), 'cheap')).toEqual({ ok: false, refusal: 'profile-missing' });
  });

  test.each([
    ['a Text Completion profile', { ...cheap, mode: 'tc', api: 'koboldcpp' }, { ok: false, refusal: 'profile-not-chat-completion' }],
    ['a Claude profile', { ...cheap, api: 'claude' }, { ok: false, refusal: 'profile-source-unsupported', source: 'claude' }],
    ['a Google profile', { ...cheap, api: 'google' }, { ok: false, refusal: 'profile-source-unsupported', source: 'makersuite' }],
    ['a profile behind a proxy preset', { ...cheap, proxy: 'Work proxy' }, { ok: false, refusal: 'profile-proxy-preset', source: 'openrouter' }],
    ['a profile without an API', { ...cheap, api: undefined }, { ok: false, refusal: 'profile-not-chat-completion' }],
  ])('refuse %s', (_name, profile, expected) => {
    expect(profileCallFields(pageWith([profile]), 'Cheap')).toEqual(expected);
  });

  test('say when the page has no Connection Manager: not SillyTavern, or the extension is off', () => {
    expect(profileCallFields({} as Window, 'Cheap')).toEqual({ ok: false, refusal: 'connection-manager-unavailable' });
    expect(profileCallFields(pageWith([cheap], { disabledExtensions: ['connection-manager'] }), 'Cheap')).toEqual({ ok: false, refusal: 'connection-manager-unavailable' });
  });

  test('read a Chat Completion profile of a page without CONNECT_API_MAP by its mode', () => {
    expect(profileCallFields(pageWith([{ ...cheap, api: 'deepseek' }], { withoutApiMap: true }), 'Cheap')).toMatchObject({ ok: true, source: 'deepseek' });
  });
});

describe("a connection profile's completion preset", () => {
  const withPresets = (presets: Record<string, Record<string, unknown>>): Window => {
    const page = pageWith([cheap]) as unknown as { SillyTavern: { getContext: () => Record<string, unknown> } };
    const context = page.SillyTavern.getContext();
    const manager = {
      getPresetList: () => ({ preset_names: Object.fromEntries(Object.keys(presets).map((name, index) => [name, index])) }),
      getCompletionPresetByName: (name: string) => presets[name],
    };
    page.SillyTavern.getContext = () => ({ ...context, getPresetManager: (api: string) => (api === 'openai' ? manager : null) });
    return page as unknown as Window;
  };

  test('is read by the name the profile gives it, never the page’s open one', () => {
    const result = profileCallFields(withPresets({ Default: { temperature: 0.3 }, Open: { temperature: 1.9 } }), 'Cheap');

    expect(result).toMatchObject({ ok: true, preset: { name: 'Default', settings: { temperature: 0.3 } } });
  });

  test('one the page no longer has refuses the call, naming the preset', () => {
    expect(profileCallFields(withPresets({ Open: { temperature: 1.9 } }), 'Cheap')).toEqual({ ok: false, refusal: 'profile-preset-missing', source: 'openrouter', preset: 'Default' });
  });

  test('a page without a preset manager runs the profile without its preset', () => {
    expect(profileCallFields(pageWith([cheap]), 'Cheap')).not.toHaveProperty('preset');
  });
});

describe('the list of connection profiles', () => {
  test('keeps names, sources and models only, and marks the ones a helper cannot use', () => {
    const listed = listConnectionProfiles(readTavernProfiles(pageWith([cheap, { id: 'x', mode: 'tc', name: 'Kobold', api: 'koboldcpp', 'api-url': 'http://127.0.0.1:5001' }, { id: 'y', mode: 'cc' }])));
    expect(listed).toEqual([
      { name: 'Cheap', source: 'openrouter', model: 'deepseek/deepseek-chat' },
      { name: 'Kobold', refusal: 'profile-not-chat-completion' },
    ]);
  });

  test('is undefined on a page without a Connection Manager', () => {
    expect(listConnectionProfiles(readTavernProfiles({}))).toBeUndefined();
  });
});
