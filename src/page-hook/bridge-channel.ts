import type { BridgeToPageMessage, PageToBridgeMessage } from '../messaging/page-messages';
import { BRIDGE_READY, PAGE_HOOK_CONNECT } from '../messaging/page-channel-names';

/** The page hook's end of the MessageChannel to the bridge. */
export interface BridgeChannel {
  send(message: PageToBridgeMessage): void;
  /** Resolves true once the bridge answered, false when it did not within `timeoutMs`. */
  whenConnected(timeoutMs: number): Promise<boolean>;
}

/**
 * Offers a MessagePort to the bridge at document_start. Whichever of the two scripts starts first,
 * they meet: the hook offers now, and again when the bridge announces itself.
 */
export function connectToBridge(target: Window, onMessage: (message: BridgeToPageMessage) => void): BridgeChannel {
  let port: MessagePort | undefined;
  let connected = false;
  const waiters: (() => void)[] = [];

  const offer = () => {
    const channel = new MessageChannel();
    port?.close();
    port = channel.port1;
    port.onmessage = (event: MessageEvent) => {
      const message = JSON.parse(String(event.data)) as BridgeToPageMessage;
      if (message.type === 'connected') {
        connected = true;
        waiters.splice(0).forEach((wake) => wake());
      } else {
        onMessage(message);
      }
    };
    target.postMessage(PAGE_HOOK_CONNECT, '*', [channel.port2]);
  };
  target.addEventListener('message', (event) => {
    if (event.data === BRIDGE_READY && !connected) offer();
  });
  offer();

  return {
    send(message) {
      port?.postMessage(JSON.stringify(message));
    },
    whenConnected(timeoutMs) {
      if (connected) return Promise.resolve(true);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(connected), timeoutMs);
        waiters.push(() => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    },
  };
}
