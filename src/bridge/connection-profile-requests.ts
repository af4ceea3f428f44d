import { connectionProfilesRequestSchema, type ConnectionProfilesAnswer } from '../messaging/connection-profile-messages';
import type { ConnectionProfileQuery } from './connection-profile-query';

export interface ConnectionProfileRequestOptions {
  isSiteOn: () => Promise<boolean>;
  /** The page's query, once the page hook connected. */
  query: () => ConnectionProfileQuery | undefined;
}

/**
 * Answers an extension page's `connection-profiles-request` (runtime message to this tab) with the
 * page's SillyTavern connection profiles. Anything else gets `undefined`, so other listeners answer
 * it. While the site is off the page is not asked.
 *
 * @example
 * browser.runtime.onMessage.addListener((message) => answerConnectionProfileRequest(message, { isSiteOn, query }));
 */
export function answerConnectionProfileRequest(message: unknown, options: ConnectionProfileRequestOptions): Promise<ConnectionProfilesAnswer> | undefined {
  if (!connectionProfilesRequestSchema().safeParse(message).success) return undefined;
  return options.isSiteOn().then((on) => {
    const query = options.query();
    return on && query ? query.ask() : { kind: 'no-answer' };
  });
}
