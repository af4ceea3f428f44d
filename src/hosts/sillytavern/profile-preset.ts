import { SAMPLING_FIELDS, splitSampling, type SamplingField, type SamplingValues } from '../../model/sampling-sources';
import { PRESET_KEYS, type PageFields, type TavernProfilesState } from './page-state';

/**
 * SillyTavern's Chat Completion presets, as the page hook reads them through
 * `SillyTavern.getContext().getPresetManager('openai')` (page-state.ts), made sense of in the bridge:
 * the sampling a connection profile's completion preset holds, by the preset's name, never the preset
 * the page has open. Only sampling is taken: the preset's prompts are the chat's, an agent's prompt
 * is its own.
 */

/** A Chat Completion preset's sampling fields (as a chat-completions body names them). */
export function presetSampling(preset: Record<string, unknown>): SamplingValues {
  const sampling: SamplingValues = {};
  SAMPLING_FIELDS.forEach((field, index) => {
    const raw = preset[PRESET_KEYS[index] as string];
    if (field === 'reasoning_effort') {
      // SillyTavern's efforts in OpenAI's words: `min` is `minimal`, `max` is `high`; `auto` sends none.
      if (typeof raw === 'string' && raw !== 'auto') sampling.reasoning_effort = raw === 'min' ? 'minimal' : raw === 'max' ? 'high' : raw;
      return;
    }
    const value = Number(raw);
    // A seed below 0 means "random" in SillyTavern, and a top_k of 0 means "off": neither is sent.
    if (raw === undefined || raw === null || raw === '' || !Number.isFinite(value) || (field === 'seed' && value < 0) || (field === 'top_k' && value <= 0)) return;
    sampling[field] = value;
  });
  return sampling;
}

/**
 * The Chat Completion preset of that name; `missing` when the page's preset manager has none of that
 * name; `no-manager` when the page has no preset manager to ask (a SillyTavern before 1.18's
 * `getContext().getPresetManager`).
 */
export function readCompletionPreset(state: TavernProfilesState, name: string): { kind: 'found'; settings: PageFields } | { kind: 'missing' } | { kind: 'no-manager' } {
  if (!state.presets) return { kind: 'no-manager' };
  const preset = Object.hasOwn(state.presets, name) ? state.presets[name] : undefined;
  return typeof preset === 'object' && preset !== null ? { kind: 'found', settings: preset } : { kind: 'missing' };
}

/** The page's Chat Completion presets, names and sampling only, in the page's order; undefined without a preset manager. */
export function listCompletionPresets(state: TavernProfilesState): { name: string; sampling: SamplingValues }[] | undefined {
  if (!state.presets) return undefined;
  return Object.entries(state.presets).flatMap(([name, preset]) => (name !== '' && typeof preset === 'object' && preset !== null ? [{ name: name.slice(0, 100), sampling: presetSampling(preset) }] : []));
}

/** What a call on a profile runs with, reported to the background for the side panel. */
export interface ProfileRanWith {
  model?: string;
  preset?: string;
  sampling: SamplingValues;
  /** Fields the profile's source does not take, left out (of the preset or the agent's own sampling). */
  dropped: SamplingField[];
}

/**
 * The sampling of one call on a profile: the profile's preset, the agent's own fields (in the call's
 * body) on top, both filtered by the profile's source. Returns the body's sampling fields to set and
 * which were dropped.
 */
export function profileCallSampling(preset: Record<string, unknown> | undefined, callBody: Record<string, unknown>, source: string): { sampling: SamplingValues; dropped: SamplingField[] } {
  const own: SamplingValues = {};
  for (const field of SAMPLING_FIELDS) if (callBody[field] !== undefined) own[field] = callBody[field] as number | string;
  const { kept, dropped } = splitSampling({ ...(preset ? presetSampling(preset) : {}), ...own }, source);
  return { sampling: kept, dropped };
}

/*
 * Checked against SillyTavern 1.18.0 (https://github.com/jaidaken/SillyTavern/tree/1.18.0):
 * - public/scripts/st-context.js: getContext().getPresetManager.
 * - public/scripts/preset-manager.js: getPresetManager(apiId), PresetManager.getCompletionPresetByName(name)
 *   and getPresetList() (`preset_names` is `{name: index}` for 'openai').
 * - public/scripts/openai.js: `settingsToUpdate`, the preset's keys (temperature, frequency_penalty,
 *   presence_penalty, top_p, top_k, min_p, repetition_penalty, openai_max_tokens, seed, reasoning_effort)
 *   and the open settings each loads into (temp_openai, freq_pen_openai, ...); reasoning_effort_types
 *   (auto, min, low, medium, high, max). Checked by hand on a real 1.18 (docs/sillytavern-check.md).
 * - public/scripts/extensions/connection-manager/index.js: a profile's `preset` is the preset's name.
 */
