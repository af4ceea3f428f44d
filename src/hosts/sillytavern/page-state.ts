/**
 * What the page hook reads of SillyTavern's page state for the bridge, as it is: the bridge and the
 * background make sense of it (connection-profiles.ts, profile-preset.ts, src/bridge/page-chat.ts),
 * so the page's world runs only the reads. No imports: the MAIN-world page hook uses these lists.
 * Only strings and numbers are taken, under the keys below: no prompts, no nested objects.
 */

/** A Connection Manager profile's fields the bridge reads (public/scripts/extensions/connection-manager/index.js). */
export const PROFILE_KEYS = ['name', 'api', 'mode', 'model', 'proxy', 'api-url', 'secret-id', 'prompt-post-processing', 'preset'];

/**
 * A Chat Completion preset's sampling, under the keys its file uses (`temperature`, not the open
 * settings' `temp_openai`), in the order of SAMPLING_FIELDS (`openai_max_tokens` is `max_tokens`),
 * then `reasoning_effort`.
 */
export const PRESET_KEYS = ['temperature', 'top_p', 'top_k', 'min_p', 'frequency_penalty', 'presence_penalty', 'repetition_penalty', 'openai_max_tokens', 'seed', 'reasoning_effort'];

/** The most profiles and presets the page hook reads (MAX_LISTED_PROFILES). */
export const MAX_PAGE_PROFILES = 200;

/** A flat record of a page object's string and number fields. */
export type PageFields = Record<string, string | number>;

/**
 * The Connection Manager and the completion presets: `profiles` is absent when the page has no
 * Connection Manager (not SillyTavern, or the extension is off), `presets` (by name) when it has no
 * preset manager; `apiMap` is SillyTavern's CONNECT_API_MAP (`api` to `{selected, source}`).
 */
export interface TavernProfilesState {
  profiles?: PageFields[];
  apiMap?: Record<string, PageFields>;
  presets?: Record<string, PageFields>;
}

/** The open chat at the time of a request: `chatId`, how many messages it has, the last one's `swipe_id`. */
// A type, not an interface: it goes into a message whose schema takes any JSON object.
export type TavernChatState = {
  chatId?: string | number;
  length?: number;
  swipe_id?: string | number;
};
