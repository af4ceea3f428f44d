import { listConnectionProfiles } from '../hosts/sillytavern/connection-profiles';
import type { TavernProfilesState } from '../hosts/sillytavern/page-state';
import { listCompletionPresets } from '../hosts/sillytavern/profile-preset';
import type { ConnectionProfilesAnswer } from '../messaging/connection-profile-messages';
import type { BridgeToPageMessage, PageToBridgeMessage } from '../messaging/page-messages';

/** How long the bridge waits for the page hook to read the page's connection profiles. */
export const PROFILE_QUERY_TIMEOUT_MS = 3_000;
/** Queries one page may have open at once; more are answered `no-answer` at once. */
const MAX_OPEN_QUERIES = 4;

export interface ConnectionProfileQuery {
  /** Asks the page hook for the page's connection profiles, as an extension page is shown them. */
  ask(): Promise<ConnectionProfilesAnswer>;
  /** Asks the page hook for the profiles and presets as the page holds them; undefined when it did not answer. */
  read(): Promise<TavernProfilesState | undefined>;
  /** Takes the page hook's (already zod-parsed) answer; answers to no open query are dropped. */
  receive(message: Extract<PageToBridgeMessage, { type: 'connection-profiles' }>): void;
}

/**
 * The bridge's side of a SillyTavern page's connection profiles: one question to the page hook per
 * request, answered with what the page holds (flat records the page hook read), of which the bridge
 * keeps names, sources, models and sampling only; the answer is passed on and nothing is kept.
 */
export function createConnectionProfileQuery(toPage: (message: BridgeToPageMessage) => void, timeoutMs = PROFILE_QUERY_TIMEOUT_MS): ConnectionProfileQuery {
  const open = new Map<string, (state: TavernProfilesState | undefined) => void>();
  let nextQuery = 1;
  const read = (): Promise<TavernProfilesState | undefined> => {
    if (open.size >= MAX_OPEN_QUERIES) return Promise.resolve(undefined);
    const queryId = `profiles-${nextQuery++}`;
    return new Promise((resolve) => {
      const timer = setTimeout(() => answer(undefined), timeoutMs);
      const answer = (state: TavernProfilesState | undefined) => {
        clearTimeout(timer);
        open.delete(queryId);
        resolve(state);
      };
      open.set(queryId, answer);
      toPage({ type: 'connection-profiles-request', queryId });
    });
  };
  return {
    read,
    ask: () =>
      read().then((state): ConnectionProfilesAnswer => {
        const profiles = state && listConnectionProfiles(state);
        if (!state) return { kind: 'no-answer' };
        if (!profiles) return { kind: 'no-connection-manager' };
        const presets = listCompletionPresets(state);
        return { kind: 'profiles', profiles, ...(presets ? { presets } : {}) };
      }),
    receive({ queryId, ...state }) {
      open.get(queryId)?.(state as TavernProfilesState);
    },
  };
}
