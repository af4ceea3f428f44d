import type { BridgeToPageMessage, PageToBridgeMessage } from '../messaging/page-messages';
import { BRIDGE_READY, PAGE_HOOK_CONNECT } from '../messaging/page-channel-names';

/** The page hook's end of the MessageChannel to the bridge. */
export interface BridgeChannel {
  send(message: PageToBridgeMessage): void;
  /** Resolves true once the bridge answered, false when it did not within `timeoutMs`. */
  whenConnected(timeoutMs: number): Promise<boolean>;
}

/** Offers made per document: one at start, one more if the bridge announces itself later. */
const MAX_OFFERS = 2;

/**
 * Offers a MessagePort to the bridge at document_start. Whichever of the two scripts starts first,
 * they meet: the hook offers now, and again when the bridge announces itself. The bridge takes one
 * port per document, so the offer it answers is the one kept; the other is closed.
 */
export function connectToBridge(target: Window, onMessage: (message: Exclude<BridgeToPageMessage, { type: 'connected' }>) => void): BridgeChannel {
  const offered: MessagePort[] = [];
  let port: MessagePort | undefined;
  let wake: (connected: boolean) => void = () => undefined;
  const connected = new Promise<boolean>((resolve) => (wake = resolve));

  const offer = () => {
    const channel = new MessageChannel();
    const candidate = channel.port1;
    offered.push(candidate);
    candidate.onmessage = (event: MessageEvent) => {
      const message = JSON.parse(event.data as string) as BridgeToPageMessage;
      if (message.type === 'connected') {
        if (port) return;
        port = candidate;
        offered.filter((other) => other !== candidate).forEach((other) => other.close());
        wake(true);
      } else if (candidate === port) {
        onMessage(message);
      }
    };
    target.postMessage(PAGE_HOOK_CONNECT, target.location.origin, [channel.port2]);
  };
  target.addEventListener('message', (event) => {
    if (event.source === target && event.data === BRIDGE_READY && !port && offered.length < MAX_OFFERS) offer();
  });
  offer();

  return {
    send(message) {
      port?.postMessage(JSON.stringify(message));
    },
    whenConnected: (timeoutMs) => Promise.race([connected, new Promise<boolean>((resolve) => setTimeout(resolve, timeoutMs, false))]),
  };
}
