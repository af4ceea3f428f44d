import type { BridgeToPageMessage } from '../messaging/page-messages';
import { chatTurnRequestId, isOversizedPageMessage, parsePageMessage } from '../messaging/page-messages';
import { BRIDGE_READY, PAGE_HOOK_CONNECT } from '../messaging/page-channel-names';
import { createConnectionProfileQuery, type ConnectionProfileQuery } from './connection-profile-query';
import { createChatTurnRelay, type ChatTurnRelay, type ChatTurnRelayOptions, type RunPort } from './chat-turn-relay';
import { pageChatOf } from './page-chat';
import { passThroughReplyEvents } from './pass-through-reply';
import { createBetweenTurnsRelay } from './between-turns-relay';
import type { HostCallTurn } from './host-call-relay';

/** What a served page port offers the rest of the bridge. */
export interface ServedPage extends ConnectionProfileQuery {
  /** Carries a helper the user ran between turns (its host calls through this page); false when the page has enough in flight. */
  runBetweenTurns(runId: string, agentId: string): boolean;
}

/** Chat turns one page may have in flight at once. */
export const MAX_RUNS_PER_PORT = 4;

export interface PagePortOptions {
  isSiteOn: () => Promise<boolean>;
  openRunPort: () => RunPort;
  describeLostBackground: () => string;
  keepAliveMs?: number;
  /** The page's address now (the bridge shares it with the page: `location.href`), for a chat its address names. */
  pageAddress?: () => string;
}

/**
 * Serves one MessagePort the page offered. Every message's size is checked before it is parsed
 * (with zod); malformed or oversized ones are dropped. While the site is off, a chat turn is sent
 * back to the page's server untouched, unread, and nothing else is answered. Gives back the way to
 * ask the page for its SillyTavern connection profiles.
 */
export function servePagePort(port: MessagePort, options: PagePortOptions): ServedPage {
  const sessions = new Map<string, Pick<ChatTurnRelay, 'fromPage'>>();
  const toPage = (message: BridgeToPageMessage) => port.postMessage(JSON.stringify(message));
  const profileQuery = createConnectionProfileQuery(toPage);
  /** The page's last chat turn Retinue read: a helper run between turns calls the model as it did. */
  let lastTurn: HostCallTurn | undefined;
  /** Request ids need only be unique on this port (the page hook's are `turn-N`). */
  let betweenRuns = 0;

  const startSession = (requestId: string, start: ChatTurnRelayOptions['start']) =>
    sessions.set(
      requestId,
      createChatTurnRelay({
        requestId,
        start,
        openPort: options.openRunPort,
        toPage,
        readProfiles: profileQuery.read,
        onEnd: () => sessions.delete(requestId),
        describeLostBackground: options.describeLostBackground,
        keepAliveMs: options.keepAliveMs,
      }),
    );

  /**
   * A chat turn: the site state comes first, then the size, and only then is the text parsed. While the
   * site is off the turn goes back to the page's server whatever its size; one too large to read is
   * never dropped: the background notes the limit and the turn passes through.
   */
  const receiveChatTurn = (requestId: string, text: string) => {
    void options.isSiteOn().then((on) => {
      if (!on) {
        toPage({ type: 'pass-through', requestId });
        return;
      }
      if (sessions.has(requestId) || sessions.size >= MAX_RUNS_PER_PORT) return;
      if (isOversizedPageMessage(text)) {
        startSession(requestId, undefined);
        return;
      }
      const message = parsePageMessage(text);
      if (message?.type !== 'run-start' || message.requestId !== requestId) return;
      const { adapter, body } = message;
      lastTurn = { adapter, body };
      const chat = pageChatOf(adapter, message.tavern, body.type, options.pageAddress?.() ?? '');
      startSession(requestId, { adapter, body, ...(chat ? { chat } : {}) });
    });
  };

  port.onmessage = (event: MessageEvent) => {
    const turnId = chatTurnRequestId(event.data);
    if (turnId !== undefined) {
      receiveChatTurn(turnId, event.data as string);
      return;
    }
    const message = parsePageMessage(event.data);
    // A run-start that does not open with its type and request id is not the page hook's: dropped.
    if (!message || message.type === 'run-start') return;
    if (message.type === 'connection-profiles') {
      profileQuery.receive(message);
      return;
    }
    if (message.type === 'pass-through-reply') {
      // The run is over: the page's own answer ends the stream Retinue began.
      toPage({ type: 'response-chunk', requestId: message.requestId, text: passThroughReplyEvents(message.status, message.text) });
      toPage({ type: 'response-end', requestId: message.requestId });
      return;
    }
    sessions.get(message.requestId)?.fromPage(message);
  };
  toPage({ type: 'connected' });
  return {
    ...profileQuery,
    runBetweenTurns(runId, agentId) {
      if (sessions.size >= MAX_RUNS_PER_PORT) return false;
      const requestId = `between-${(betweenRuns += 1)}`;
      sessions.set(
        requestId,
        createBetweenTurnsRelay({
          requestId,
          runId,
          agentId,
          openPort: options.openRunPort,
          toPage,
          lastTurn: () => lastTurn,
          readProfiles: profileQuery.read,
          onEnd: () => sessions.delete(requestId),
          keepAliveMs: options.keepAliveMs,
        }),
      );
      return true;
    },
  };
}

/**
 * Accepts the page hook's MessagePort from `window` and announces the bridge, so the two meet
 * whichever started first at document_start. Only the page's own top-level document is trusted: a
 * port is taken only from a message whose `source` is this window and whose `origin` is this page's
 * exact origin (scheme, host and port), and only once per document. Frames (cross-origin or sandboxed
 * with origin `null`) and openers are ignored and use up nothing.
 */
export function acceptPageHookPorts(target: Window, serve: (port: MessagePort) => void): void {
  const ownOrigin = target.location.origin;
  const listener = (event: MessageEvent) => {
    if (event.source !== target || event.origin !== ownOrigin || event.data !== PAGE_HOOK_CONNECT) return;
    const port = event.ports?.[0];
    if (!port) return;
    target.removeEventListener('message', listener);
    serve(port);
  };
  target.addEventListener('message', listener);
  target.postMessage(BRIDGE_READY, ownOrigin);
}
