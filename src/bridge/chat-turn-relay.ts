import { createPageResponseWriter } from '../hosts/page-response-writer';
import { sourceStreamFormatFor } from '../hosts/sillytavern/source-stream-formats';
import type { TavernProfilesState } from '../hosts/sillytavern/page-state';
import type { ProfileRanWith } from '../hosts/sillytavern/profile-preset';
import type { PageChatIdentity } from '../records/chat-identity';
import { hostCallStatus } from '../hosts/detect-chat-turn';
import { planHostCall } from './host-call-plan';
import type { BridgeToPageMessage, PageToBridgeMessage } from '../messaging/page-messages';
import {
  backgroundToBridgeMessageSchema,
  KEEP_ALIVE_INTERVAL_MS,
  type BackgroundToBridgeMessage,
  type BridgeToBackgroundMessage,
} from '../messaging/run-port-messages';

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
  const openHostCalls = new Set<string>();
  /** What each open call on a connection profile runs with, told to the background with its start. */
  const ranWith = new Map<string, ProfileRanWith>();
  /** The page has its reply; the run's helpers still work (a reply deadline passed) until `run-closed`. */
  let helpersWorking = false;
  let port: RunPort | undefined;
  let runId: string | undefined;
  let ended = false;
  let reconnects = 0;
  const keepAlive = setInterval(() => port?.postMessage({ type: 'keep-alive' }), options.keepAliveMs ?? KEEP_ALIVE_INTERVAL_MS);

  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(keepAlive);
    port?.disconnect();
    options.onEnd();
  };

  const onBackground = (raw: unknown) => {
    const parsed = backgroundToBridgeMessageSchema.safeParse(raw);
    if (!parsed.success || ended) return;
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
        openHostCalls.add(message.callId);
        void startHostCall(message.callId, message.body, message.connectionProfile);
        break;
      case 'host-call-abort':
        openHostCalls.delete(message.callId);
        options.toPage({ type: 'host-call-abort', requestId, callId: message.callId });
        break;
    }
  };

  /** Builds the call's body (on a profile, from what the page holds now) and hands it to the page hook. */
  const startHostCall = async (callId: string, callBody: Record<string, unknown>, profileName: string | undefined) => {
    // A page that does not answer has no Connection Manager to run the call on.
    const profile = profileName === undefined ? undefined : { name: profileName, state: (await options.readProfiles()) ?? {} };
    if (!openHostCalls.has(callId) || ended) return;
    const plan = planHostCall(body, callBody, profile);
    if (!plan.ok) {
      openHostCalls.delete(callId);
      const { ok: _ok, ...refusal } = plan;
      port?.postMessage({ type: 'host-call-refused', callId, ...refusal });
      return;
    }
    if (plan.ranWith) ranWith.set(callId, plan.ranWith);
    options.toPage({ type: 'host-call', requestId, callId, body: plan.body });
  };

  const onDisconnect = () => {
    if (ended) return;
    for (const callId of openHostCalls) options.toPage({ type: 'host-call-abort', requestId, callId });
    openHostCalls.clear();
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
      if (ended) return;
      if (message.type === 'run-abort') {
        port?.postMessage({ type: 'run-abort' });
        end();
        return;
      }
      if (message.type === 'run-start' || message.type === 'connection-profiles' || message.type === 'pass-through-reply' || !openHostCalls.has(message.callId)) return;
      if (message.type === 'host-call-end' || message.type === 'host-call-error') openHostCalls.delete(message.callId);
      const { requestId: _requestId, ...relayed } = message;
      if (relayed.type !== 'host-call-start') {
        port?.postMessage(relayed);
        return;
      }
      // The model's status behind the host's, and what a call on a profile runs with.
      const { statusText, ...start } = relayed;
      const profile = ranWith.get(relayed.callId);
      ranWith.delete(relayed.callId);
      const status = options.start ? hostCallStatus(options.start.adapter, { status: start.status, statusText: statusText ?? '' }) : start.status;
      port?.postMessage({ ...start, status, ...(profile ? { ranWith: profile } : {}) });
    },
  };
}
