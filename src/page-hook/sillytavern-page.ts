import { MAX_PAGE_PROFILES, PRESET_KEYS, PROFILE_KEYS, type PageFields, type TavernChatState, type TavernProfilesState } from '../hosts/sillytavern/page-state';

/**
 * Reads of SillyTavern's `getContext()` that only the page's world can make; nothing here decides
 * anything (the bridge does). Checked against SillyTavern 1.18.0 (public/scripts/st-context.js:
 * chatId, chat, extensionSettings, CONNECT_API_MAP, getPresetManager, eventSource).
 */

type Loose = Record<string, unknown> | undefined;
type TavernContext = Record<string, unknown> & {
  chat?: { swipe_id?: unknown }[];
  extensionSettings?: { disabledExtensions?: string[]; connectionManager?: { profiles?: unknown } };
  getPresetManager?: (api: string) => { getPresetList?: () => { preset_names?: unknown }; getCompletionPresetByName?: (name: string) => unknown } | undefined;
  eventSource?: { on?: (type: string, listener: (value: unknown) => void) => void };
};

/** The page's SillyTavern context; undefined while it is not there (yet) or when it throws. */
export function tavernContext(target: object): TavernContext | undefined {
  try {
    return (target as { SillyTavern?: { getContext?: () => TavernContext } }).SillyTavern?.getContext?.();
  } catch {
    return undefined;
  }
}

/** The listed fields of a page object that are strings or numbers: nothing nested, so it can always be sent. */
function fieldsOf(value: unknown, keys: string[]): PageFields {
  const fields: PageFields = {};
  for (const key of keys) {
    const field = (value as Loose)?.[key];
    if (typeof field === 'string' || typeof field === 'number') fields[key] = field;
  }
  return fields;
}

export function readTavernChat(target: object): TavernChatState | undefined {
  const context = tavernContext(target);
  const chat = context?.chat;
  return context && { ...fieldsOf(context, ['chatId']), ...(Array.isArray(chat) ? { length: chat.length, ...fieldsOf(chat.at(-1), ['swipe_id']) } : {}) };
}

/** The Connection Manager's profiles, SillyTavern's API map, and the Chat Completion presets' sampling. */
export function readTavernProfiles(target: object): TavernProfilesState {
  const context = tavernContext(target);
  const state: TavernProfilesState = {};
  try {
    const { disabledExtensions, connectionManager } = context?.extensionSettings ?? {};
    const profiles = connectionManager?.profiles;
    // A page whose settings are not shaped so throws, and reads as no Connection Manager.
    if (Array.isArray(profiles) && !disabledExtensions?.includes('connection-manager')) {
      state.profiles = profiles.slice(0, MAX_PAGE_PROFILES).map((profile) => fieldsOf(profile, PROFILE_KEYS));
      state.apiMap = Object.fromEntries(Object.entries(context?.CONNECT_API_MAP ?? {}).map(([api, entry]) => [api, fieldsOf(entry, ['selected', 'source'])]));
    }
    const manager = context?.getPresetManager?.('openai');
    // `preset_names` is `{name: index}` for Chat Completion presets.
    const names = manager?.getPresetList?.()?.preset_names;
    if (names) state.presets = {};
    for (const name of Object.keys(names ?? {}).slice(0, MAX_PAGE_PROFILES)) {
      const preset = manager?.getCompletionPresetByName?.(name);
      if (preset && state.presets) state.presets[name] = fieldsOf(preset, PRESET_KEYS);
    }
  } catch {
    // What was read so far is all there is.
  }
  return state;
}
