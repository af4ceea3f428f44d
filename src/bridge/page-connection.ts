import type { BridgeToPageMessage } from '../messaging/page-messages';
import { parsePageMessage } from '../messaging/page-messages';
import { BRIDGE_READY, PAGE_HOOK_CONNECT } from '../messaging/page-channel-names';
import { createChatTurnRelay, type ChatTurnRelay, type RunPort } from './chat-turn-relay';

/** A page has one page hook; a few more ports are tolerated (a reload race), then ignored. */
const MAX_PAGE_PORTS = 4;
/** Chat turns one page may have in flight at once. */
const MAX_RUNS_PER_PORT = 4;

export interface PagePortOptions {
  isSiteOn: () => Promise<boolean>;
  openRunPort: () => RunPort;
  describeLostBackground: () => string;
  keepAliveMs?: number;
}

/**
 * Serves one MessagePort the page offered. Every message is parsed with zod and size-capped;
 * malformed or oversized ones are dropped. While the site is off, a chat turn is sent back to the
 * page's server untouched and nothing else is answered.
 */
export function servePagePort(port: MessagePort, options: PagePortOptions): void {
  const sessions = new Map<string, ChatTurnRelay>();
  const toPage = (message: BridgeToPageMessage) => port.postMessage(JSON.stringify(message));

  port.onmessage = (event: MessageEvent) => {
    const message = parsePageMessage(event.data);
    if (!message) return;
    if (message.type !== 'run-start') {
      sessions.get(message.requestId)?.fromPage(message);
      return;
    }
    const { requestId } = message;
    if (sessions.has(requestId) || sessions.size >= MAX_RUNS_PER_PORT) return;
    void options.isSiteOn().then((on) => {
      if (!on) {
        toPage({ type: 'pass-through', requestId });
        return;
      }
      sessions.set(
        requestId,
        createChatTurnRelay({
          requestId,
          start: message,
          openPort: options.openRunPort,
          toPage,
          onEnd: () => sessions.delete(requestId),
          describeLostBackground: options.describeLostBackground,
          keepAliveMs: options.keepAliveMs,
        }),
      );
    });
  };
  toPage({ type: 'connected' });
}

/**
 * Accepts the page hook's MessagePort from `window` and announces the bridge, so the two meet
 * whichever started first at document_start.
 */
export function acceptPageHookPorts(target: Window, serve: (port: MessagePort) => void): void {
  let accepted = 0;
  target.addEventListener('message', (event: MessageEvent) => {
    const port = event.data === PAGE_HOOK_CONNECT ? event.ports?.[0] : undefined;
    if (!port || accepted >= MAX_PAGE_PORTS) return;
    accepted += 1;
    serve(port);
  });
  target.postMessage(BRIDGE_READY, '*');
}
