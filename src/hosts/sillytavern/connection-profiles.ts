import { OPENAI_SHAPED_SOURCES } from './openai-shaped-sources';
import type { PageFields, TavernProfilesState } from './page-state';
import { readCompletionPreset } from './profile-preset';

/**
 * SillyTavern's Connection Manager profiles, as the page hook reads them from
 * `SillyTavern.getContext().extensionSettings.connectionManager.profiles` (page-state.ts), classified
 * in the bridge, and the fields of a
 * generate request that runs on one of them. The request body carries what SillyTavern's own
 * `ConnectionManagerRequestService.sendRequest` puts there for a Chat Completion profile (source,
 * model, server URL, secret id, prompt post-processing), so the page's server picks the profile's key
 * by its secret id and no key ever leaves the page. See docs/connection-profiles.md for why Retinue
 * builds the body instead of calling `sendRequest`.
 */

/** Why a profile cannot take a call; the background words the message from it and the profile's name. */
export type ProfileRefusal =
  | 'connection-manager-unavailable'
  | 'profile-missing'
  | 'profile-not-chat-completion'
  | 'profile-source-unsupported'
  | 'profile-proxy-preset'
  /** The profile names a completion preset the page no longer has. */
  | 'profile-preset-missing';

/** What Retinue keeps of one profile: no ids, addresses or secrets. */
export interface ConnectionProfileSummary {
  name: string;
  /** The Chat Completion source (`openai`, `custom`, `openrouter`, ...); absent for text completion. */
  source?: string;
  model?: string;
  /** Absent when a helper can run on it. */
  refusal?: ProfileRefusal;
}

export type ProfileCallFields =
  | {
      ok: true;
      fields: Record<string, unknown>;
      source: string;
      model?: string;
      /** The profile's completion preset, by name, and what it holds; absent when the profile names none. */
      preset?: { name: string; settings: PageFields };
    }
  | { ok: false; refusal: ProfileRefusal; source?: string; preset?: string };

/** Proxy preset names that mean "no proxy" in SillyTavern. */
const NO_PROXY = ['', 'None'];

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The Chat Completion source a profile's `api` names, as SillyTavern's connect map resolves it. */
function sourceOf(profile: PageFields, apiMap: TavernProfilesState['apiMap']): string | undefined {
  const api = text(profile.api);
  if (!api) return undefined;
  const mapped = apiMap?.[api];
  if (mapped) return mapped.selected === 'openai' ? text(mapped.source) : undefined;
  // Without the map (an older page), a Chat Completion profile's api is its source.
  return profile.mode === 'cc' ? api : undefined;
}

function refusalOf(profile: PageFields, source: string | undefined): ProfileRefusal | undefined {
  if (!source) return 'profile-not-chat-completion';
  if (!OPENAI_SHAPED_SOURCES.includes(source)) return 'profile-source-unsupported';
  // A proxy preset's address and password live in SillyTavern's memory, out of a page script's reach.
  const proxy = text(profile.proxy);
  if (proxy !== undefined && !NO_PROXY.includes(proxy)) return 'profile-proxy-preset';
  return undefined;
}

/** The page's connection profiles, as Retinue may keep them; undefined when the page has no Connection Manager. */
export function listConnectionProfiles(state: TavernProfilesState): ConnectionProfileSummary[] | undefined {
  return state.profiles?.flatMap((profile) => {
    const name = text(profile.name);
    if (!name) return [];
    const source = sourceOf(profile, state.apiMap);
    const model = text(profile.model);
    const refusal = refusalOf(profile, source);
    return [{ name, ...(source ? { source } : {}), ...(model ? { model } : {}), ...(refusal ? { refusal } : {}) }];
  });
}

/**
 * The generate-request fields that run a call on the profile named `profileName` (exact name, as the
 * Connection Manager shows it), or why it cannot.
 */
export function profileCallFields(state: TavernProfilesState, profileName: string): ProfileCallFields {
  if (!state.profiles) return { ok: false, refusal: 'connection-manager-unavailable' };
  const profile = state.profiles.find((candidate) => candidate.name === profileName);
  if (!profile) return { ok: false, refusal: 'profile-missing' };
  const source = sourceOf(profile, state.apiMap);
  const refusal = refusalOf(profile, source);
  if (refusal || !source) return { ok: false, refusal: refusal ?? 'profile-not-chat-completion', ...(source ? { source } : {}) };
  const serverUrl = text(profile['api-url']);
  const candidates: Record<string, unknown> = {
    chat_completion_source: source,
    model: text(profile.model),
    secret_id: text(profile['secret-id']),
    // SillyTavern keeps one "server URL" per profile and reads it under the field of each source that has one.
    custom_url: serverUrl,
    vertexai_region: serverUrl,
    zai_endpoint: serverUrl,
    siliconflow_endpoint: serverUrl,
    minimax_endpoint: serverUrl,
    custom_prompt_post_processing: text(profile['prompt-post-processing']),
  };
  const fields = Object.fromEntries(Object.entries(candidates).filter(([, value]) => value !== undefined));
  const model = text(profile.model);
  const presetName = text(profile.preset);
  if (presetName === undefined) return { ok: true, fields, source, ...(model ? { model } : {}) };
  const preset = readCompletionPreset(state, presetName);
  if (preset.kind === 'missing') return { ok: false, refusal: 'profile-preset-missing', source, preset: presetName };
  // A page too old to have a preset manager runs the profile without its preset (the task row shows none).
  if (preset.kind === 'no-manager') return { ok: true, fields, source, ...(model ? { model } : {}) };
  return { ok: true, fields, source, ...(model ? { model } : {}), preset: { name: presetName, settings: preset.settings } };
}

/*
 * Checked against SillyTavern 1.18.0 (read in https://github.com/jaidaken/SillyTavern/tree/1.18.0):
 * - public/scripts/extensions/shared.js ConnectionManagerRequestService.sendRequest / validateProfile:
 *   the profile's `api` through CONNECT_API_MAP to `{selected: 'openai', source}`; body fields model,
 *   chat_completion_source, secret_id, custom_url (and the other server-URL fields) from `api-url`,
 *   reverse_proxy/proxy_password from the proxy preset named by `proxy`, custom_prompt_post_processing.
 * - public/scripts/extensions/connection-manager/index.js: the ConnectionProfile fields (id, mode cc|tc,
 *   name, api, preset, model, proxy, api-url, secret-id, prompt-post-processing, ...).
 * - public/scripts/st-context.js: getContext() exposes extensionSettings and CONNECT_API_MAP.
 * - A profile's `preset` names its Chat Completion preset (profile-preset.ts reads it).
 */
