import { describe, expect, test } from 'vitest';
import { listCompletionPresets, presetSampling, profileCallSampling, readCompletionPreset } from '../../../../src/hosts/sillytavern/profile-preset';
import { readTavernProfiles } from '../../../../src/page-hook/sillytavern-page';

/** A Chat Completion preset as SillyTavern 1.18 keeps one (its file's keys), with prompts it also holds. */
const coldPreset = {
  temperature: 0.1,
  top_p: 0.5,
  top_k: 20,
  min_p: 0.1,
  frequency_penalty: 0.2,
  presence_penalty: 0.3,
  repetition_penalty: 1.15,
  openai_max_tokens: 250,
  seed: 11,
  reasoning_effort: 'min',
  prompts: [{ identifier: 'main', content: 'Write the next reply in a fictional chat.' }],
};

function pageWith(presets: Record<string, Record<string, unknown>>): Window {
  const names = Object.fromEntries(Object.keys(presets).map((name, index) => [name, index]));
  const list = Object.values(presets);
  const manager = {
    getPresetList: () => ({ presets: list, preset_names: names }),
    getCompletionPresetByName: (name: string) => (names[name] === undefined ? undefined : list[names[name]]),
  };
  return { SillyTavern: { getContext: () => ({ getPresetManager: (api: string) => (api === 'openai' ? manager : null) }) } } as unknown as Window;
}

describe('a SillyTavern completion preset', () => {
  test('gives its sampling fields under their chat-completions names, and none of its prompts', () => {
    expect(presetSampling(coldPreset)).toEqual({
      temperature: 0.1,
      top_p: 0.5,
      top_k: 20,
      min_p: 0.1,
      frequency_penalty: 0.2,
      presence_penalty: 0.3,
      repetition_penalty: 1.15,
      max_tokens: 250,
      seed: 11,
      reasoning_effort: 'minimal',
    });
  });

  test('a random seed (-1), top_k 0 (off) and reasoning effort auto are not sent', () => {
    expect(presetSampling({ temperature: 1, seed: -1, top_k: 0, reasoning_effort: 'auto' })).toEqual({ temperature: 1 });
  });

  test('is found by its name through getContext().getPresetManager("openai"), and the page’s names are listed', () => {
    const page = readTavernProfiles(pageWith({ Cold: coldPreset, Hot: { temperature: 1.4 } }));

    expect(readCompletionPreset(page, 'Hot')).toEqual({ kind: 'found', settings: { temperature: 1.4 } });
    expect(readCompletionPreset(page, 'Gone')).toEqual({ kind: 'missing' });
    expect(listCompletionPresets(page)).toEqual([{ name: 'Cold', sampling: presetSampling(coldPreset) }, { name: 'Hot', sampling: { temperature: 1.4 } }]);
  });

  test('the page hook reads only the sampling keys of a preset, none of its prompts', () => {
    expect(readTavernProfiles(pageWith({ Cold: coldPreset })).presets?.Cold).not.toHaveProperty('prompts');
  });

  test('a page without a preset manager has none', () => {
    expect(readCompletionPreset(readTavernProfiles({}), 'Cold')).toEqual({ kind: 'no-manager' });
    expect(listCompletionPresets(readTavernProfiles({}))).toBeUndefined();
  });

  test('a call on a profile: the preset, the agent’s own fields on top, filtered by the profile’s source', () => {
    const actual = profileCallSampling(coldPreset, { messages: [], temperature: 0, top_k: 5 }, 'custom');

    expect(actual.sampling).toEqual({ temperature: 0, top_p: 0.5, frequency_penalty: 0.2, presence_penalty: 0.3, max_tokens: 250, seed: 11, reasoning_effort: 'minimal' });
    expect(actual.dropped).toEqual(['top_k', 'min_p', 'repetition_penalty']);
  });
});
