import type { BridgeToPageMessage, PageToBridgeMessage } from '../messaging/page-messages';
import type { BackgroundToBridgeMessage } from '../messaging/run-port-messages';
import type { RunPort } from './chat-turn-relay';

type HostCallOrder = Extract<BackgroundToBridgeMessage, { type: 'host-call' | 'host-call-abort' }>;

/** The host calls one run makes through the page, as a relay carries them (a chat turn's, or a helper's between turns). */
export interface HostCallRelay {
  /** A call (or its abort) from the background, passed to the page under the relay's request id. */
  fromBackground(message: HostCallOrder): void;
  /** The page's answer to an open call, passed to the background; anything else is dropped. */
  fromPage(message: PageToBridgeMessage, port: RunPort | undefined): void;
  /** The run port went away: the page stops every open call. */
  abortAll(): void;
}

export function createHostCallRelay(requestId: string, toPage: (message: BridgeToPageMessage) => void): HostCallRelay {
  const open = new Set<string>();
  return {
    fromBackground(message) {
      if (message.type === 'host-call-abort') {
        open.delete(message.callId);
        toPage({ type: 'host-call-abort', requestId, callId: message.callId });
        return;
      }
      open.add(message.callId);
      toPage({
        type: 'host-call',
        requestId,
        callId: message.callId,
        body: message.body,
        ...(message.connectionProfile !== undefined ? { connectionProfile: message.connectionProfile } : {}),
      });
    },
    fromPage(message, port) {
      if (message.type === 'run-start' || message.type === 'run-abort' || message.type === 'connection-profiles' || !open.has(message.callId)) return;
      if (message.type === 'host-call-end' || message.type === 'host-call-error' || message.type === 'host-call-refused') open.delete(message.callId);
      const { requestId: _requestId, ...relayed } = message;
      port?.postMessage(relayed);
    },
    abortAll() {
      for (const callId of open) toPage({ type: 'host-call-abort', requestId, callId });
      open.clear();
    },
  };
}
