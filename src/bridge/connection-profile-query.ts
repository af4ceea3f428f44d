import type { ConnectionProfilesAnswer } from '../messaging/connection-profile-messages';
import type { BridgeToPageMessage, PageToBridgeMessage } from '../messaging/page-messages';

/** How long the bridge waits for the page hook to list the page's connection profiles. */
export const PROFILE_QUERY_TIMEOUT_MS = 3_000;
/** Queries one page may have open at once; more are answered `no-answer` at once. */
const MAX_OPEN_QUERIES = 4;

export interface ConnectionProfileQuery {
  /** Asks the page hook for the page's connection profiles. */
  ask(): Promise<ConnectionProfilesAnswer>;
  /** Takes the page hook's (already zod-parsed) answer; answers to no open query are dropped. */
  receive(message: Extract<PageToBridgeMessage, { type: 'connection-profiles' }>): void;
}

/**
 * The bridge's side of listing a SillyTavern page's connection profiles: one question to the page hook
 * per request, answered with the page's profiles (names, sources, models only, as the schema keeps
 * them) or why there are none; the answer is passed on and nothing is kept.
 */
export function createConnectionProfileQuery(toPage: (message: BridgeToPageMessage) => void, timeoutMs = PROFILE_QUERY_TIMEOUT_MS): ConnectionProfileQuery {
  const open = new Map<string, (answer: ConnectionProfilesAnswer) => void>();
  let nextQuery = 1;
  return {
    ask() {
      if (open.size >= MAX_OPEN_QUERIES) return Promise.resolve({ kind: 'no-answer' });
      const queryId = `profiles-${nextQuery++}`;
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          open.delete(queryId);
          resolve({ kind: 'no-answer' });
        }, timeoutMs);
        open.set(queryId, (answer) => {
          clearTimeout(timer);
          open.delete(queryId);
          resolve(answer);
        });
        toPage({ type: 'connection-profiles-request', queryId });
      });
    },
    receive(message) {
      const presets = message.presets ? { presets: message.presets } : {};
      open.get(message.queryId)?.(message.profiles === null ? { kind: 'no-connection-manager' } : { kind: 'profiles', profiles: message.profiles, ...presets });
    },
  };
}
