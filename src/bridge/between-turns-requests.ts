import { betweenTurnsRequestSchema } from '../messaging/run-port-messages';
import type { ServedPage } from './page-connection';

export interface BetweenTurnsRequestOptions {
  isSiteOn: () => Promise<boolean>;
  /** The page, once the page hook connected. */
  page: () => Pick<ServedPage, 'runBetweenTurns'> | undefined;
}

/**
 * Answers the background's `run-between-request` (a runtime message to this tab): this page carries
 * the helper's host calls when the site is on and the page hook is connected. Anything else gets
 * `undefined`, so other listeners answer it.
 *
 * @example
 * browser.runtime.onMessage.addListener((message) => answerBetweenTurnsRequest(message, { isSiteOn, page }));
 */
export function answerBetweenTurnsRequest(message: unknown, options: BetweenTurnsRequestOptions): Promise<{ accepted: boolean }> | undefined {
  const parsed = betweenTurnsRequestSchema().safeParse(message);
  if (!parsed.success) return undefined;
  return options.isSiteOn().then((on) => {
    const page = options.page();
    return { accepted: on && page !== undefined && page.runBetweenTurns(parsed.data.runId, parsed.data.agentId) };
  });
}
