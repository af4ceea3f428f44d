import { createPageResponseWriter } from '../hosts/page-response-writer';
import { sourceStreamFormatFor } from '../hosts/sillytavern/source-stream-formats';
import type { TavernProfilesState } from '../hosts/sillytavern/page-state';
import type { PageChatIdentity } from '../records/chat-identity';
import type { BridgeToPageMessage, PageToBridgeMessage } from '../messaging/page-messages';
import {
  backgroundToBridgeMessageSchema,
  type BackgroundToBridgeMessage,
  type BridgeToBackgroundMessage,
} from '../messaging/run-port-messages';
import { createHostCallRelay } from './host-call-relay';
import { keepRunPortAlive } from './run-port-keep-alive';

/** The slice of `runtime.Port` a chat-turn relay uses. */
export interface RunPort {
  postMessage(message: BridgeToBackgroundMessage): void;
  disconnect(): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  onDisconnect: { addListener(listener: () => void): void };
}

export interface ChatTurnRelayOptions {
  requestId: string;
  /** The page's chat turn; undefined for one too large to read, which the background passes through. */
  start: { adapter: Extract<PageToBridgeMessage, { type: 'run-start' }>['adapter']; body: Record<string, unknown>; chat?: PageChatIdentity } | undefined;
  /** Reads the page's SillyTavern connection profiles and presets, for a host call on a profile. */
  readProfiles: () => Promise<TavernProfilesState | undefined>;
  openPort: () => RunPort;
  toPage: (message: BridgeToPageMessage) => void;
  onEnd: () => void;
  /** Messages a person reads when the background is gone for good. */
  describeLostBackground: () => string;
  keepAliveMs?: number;
  /** Reconnections after the background went away, before the page gets an error. */
  maxReconnects?: number;
}

/** One chat turn in the bridge: its run port, keep-alive, reconnection, and the answer to the page. */
export interface ChatTurnRelay {
  fromPage(message: PageToBridgeMessage): void;
}

/**
 * Opens a run port and relays between the page hook and the background. While the run works a
 * keep-alive goes over the port; if the port drops (the service worker restarted) the relay
 * reconnects with the run id and the background resumes the run from the store.
 */
export function createChatTurnRelay(options: ChatTurnRelayOptions): ChatTurnRelay {
  const { requestId } = options;
  const body = options.start?.body ?? {};
  const streamFormat = options.start ? sourceStreamFormatFor(options.start.adapter, body) : undefined;
  const writer = createPageResponseWriter({
    stream: body.stream === true,
    model: typeof body.model === 'string' ? body.model : undefined,
    ...(streamFormat ? { streamFormat } : {}),
    send: (part) => {
      if (part.kind === 'start') options.toPage({ type: 'response-start', requestId, status: part.status, contentType: part.contentType });
      else if (part.kind === 'chunk') options.toPage({ type: 'response-chunk', requestId, text: part.text });
      else options.toPage({ type: 'response-end', requestId, ...(helpersWorking ? { hostCallsContinue: true } : {}) });
    },
  });
  const hostCalls = createHostCallRelay({
    requestId,
    toPage: options.toPage,
    port: () => port,
    turn: () => (options.start ? { adapter: options.start.adapter, body } : undefined),
    readProfiles: options.readProfiles,
  });
  /** The page has its reply; the run's helpers still work (a reply deadline passed) until `run-closed`. */
  let helpersWorking = false;
  let port: RunPort | undefined;
  let runId: string | undefined;
  let reconnects = 0;
  const life = keepRunPortAlive(() => port, options.onEnd, options.keepAliveMs);
  const end = () => life.end();

  const onBackground = (raw: unknown) => {
    const parsed = backgroundToBridgeMessageSchema().safeParse(raw);
    if (!parsed.success || life.ended) return;
    const message: BackgroundToBridgeMessage = parsed.data;
    switch (message.type) {
      case 'run-accepted':
        runId = message.runId;
        break;
      case 'pass-through':
        options.toPage({ type: 'pass-through', requestId });
        end();
        break;
      case 'run-progress':
        writer.progress(message.line);
        break;
      case 'run-reply-delta':
        writer.replyDelta(message.text);
        break;
      case 'run-reasoning-delta':
        writer.reasoning(message.text);
        break;
      case 'run-reply-discarded':
        writer.discardShownReply();
        break;
      case 'run-reply':
        helpersWorking = message.helpersWorking !== undefined;
        writer.reply(message.reply, { streamed: message.streamed === true });
        if (!helpersWorking) end();
        break;
      case 'run-closed':
        options.toPage({ type: 'run-closed', requestId });
        end();
        break;
      case 'run-failed':
        writer.fail(message.status, message.message);
        end();
        break;
      case 'host-call':
      case 'host-call-abort':
        hostCalls.fromBackground(message);
        break;
    }
  };

  const onDisconnect = () => {
    if (life.ended) return;
    hostCalls.abortAll();
    if (helpersWorking) {
      // The page has its reply; helpers that were still working go on without the page, or not at all.
      options.toPage({ type: 'run-closed', requestId });
      end();
      return;
    }
    if (runId && reconnects < (options.maxReconnects ?? 3)) {
      reconnects += 1;
      // The resumed run writes its turn again from the start; what the page has stays above it.
      writer.discardShownReply();
      connect({ type: 'run-resume', runId });
      return;
    }
    writer.fail(503, options.describeLostBackground());
    end();
  };

  const connect = (first: BridgeToBackgroundMessage) => {
    port = options.openPort();
    port.onMessage.addListener(onBackground);
    port.onDisconnect.addListener(onDisconnect);
    port.postMessage(first);
  };

  const chat = options.start?.chat;
  connect(options.start ? { type: 'run-start', adapter: options.start.adapter, body, ...(chat ? { chat } : {}) } : { type: 'run-over-limit', limit: 'snapshot-size' });

  return {
    fromPage(message) {
      if (life.ended) return;
      if (message.type === 'run-abort') {
        port?.postMessage({ type: 'run-abort' });
        end();
        return;
      }
      hostCalls.fromPage(message);
    },
  };
}
