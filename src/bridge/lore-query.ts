import { loreTabRequestSchema, type LoreTabAnswer } from '../messaging/lore-messages';
import type { BridgeToPageMessage, PageToBridgeMessage } from '../messaging/page-messages';

/** How long the bridge waits for the page hook to read or write the page's lore. */
export const LORE_QUERY_TIMEOUT_MS = 10_000;
/** Lore questions one page may have open at once; more are answered `no-answer` at once. */
const MAX_OPEN_QUERIES = 8;

type LoreAnswerMessage = Extract<PageToBridgeMessage, { type: 'lore-reading' | 'lore-saved' }>;

export interface LoreQuery {
  /** Asks the page hook to read or write its lorebooks; answers `no-answer` when it does not in time. */
  ask(request: Extract<BridgeToPageMessage, { type: 'lore-read-request' | 'lore-save-request' }>['request']): Promise<LoreTabAnswer>;
  /** Takes the page hook's (already zod-parsed) answer; answers to no open question are dropped. */
  receive(message: LoreAnswerMessage): void;
}

/** The bridge's side of the page's lore: one question to the page hook per request, nothing kept. */
export function createLoreQuery(toPage: (message: BridgeToPageMessage) => void, timeoutMs = LORE_QUERY_TIMEOUT_MS): LoreQuery {
  const open = new Map<string, (answer: LoreTabAnswer) => void>();
  let nextQuery = 1;
  return {
    ask(request) {
      if (open.size >= MAX_OPEN_QUERIES) return Promise.resolve({ kind: 'no-answer' });
      const queryId = `lore-${nextQuery++}`;
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
        toPage(request.type === 'lore-read-request' ? { type: 'lore-read-request', queryId, request } : { type: 'lore-save-request', queryId, request });
      });
    },
    receive(message) {
      const settle = open.get(message.queryId);
      if (!settle) return;
      if (message.type === 'lore-saved') settle({ kind: 'saved', answer: message.answer });
      else settle(message.reading === null ? { kind: 'no-lorebooks' } : { kind: 'reading', reading: message.reading });
    },
  };
}

/**
 * Answers the background's lore request (a runtime message to this tab). Anything else gets
 * `undefined`, so other listeners answer it. While the site is off the page is not asked.
 */
export function answerLoreRequest(message: unknown, options: { isSiteOn: () => Promise<boolean>; query: () => LoreQuery | undefined }): Promise<LoreTabAnswer> | undefined {
  const parsed = loreTabRequestSchema.safeParse(message);
  if (!parsed.success) return undefined;
  return options.isSiteOn().then((on) => {
    const query = options.query();
    return on && query ? query.ask(parsed.data) : { kind: 'no-answer' };
  });
}
