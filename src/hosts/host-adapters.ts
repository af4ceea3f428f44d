import type { AdapterSetting } from '../settings/schema';
import type { HostAdapterId } from './chat-turn-request';
import type { HostAdapter } from './host-adapter';
import { openAiChatAdapter } from './openai-chat/openai-chat-adapter';
import { sillyTavernAdapter } from './sillytavern/sillytavern-adapter';

/** Every host adapter Retinue ships, by id. */
export const HOST_ADAPTERS: Record<HostAdapterId, HostAdapter> = {
  'openai-chat': openAiChatAdapter,
  sillytavern: sillyTavernAdapter,
};

/**
 * The adapter for a chat turn the page hook detected, given the site's adapter setting: `auto` takes
 * the detected one; a forced adapter takes only the requests it recognises (undefined: pass through).
 */
export function chooseHostAdapter(setting: AdapterSetting, detected: HostAdapterId): HostAdapter | undefined {
  if (setting !== 'auto' && setting !== detected) return undefined;
  return HOST_ADAPTERS[detected];
}
