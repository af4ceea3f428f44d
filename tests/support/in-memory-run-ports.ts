import { browser } from 'wxt/browser';
import type { RunPort } from '../../src/bridge/chat-turn-relay';
import type { RunServicePort } from '../../src/background/run-port-handler';

type Listener<T> = (value: T) => void;

/**
 * A pair of connected `runtime.Port` stand-ins: what one end posts arrives (cloned, asynchronously)
 * at the other; `disconnect` on one end fires `onDisconnect` on the other, as in a browser. The
 * sender is this extension's own content script unless `sender` names another `id`.
 */
export function createPortPair(sender: RunServicePort['sender']): { bridgeEnd: RunPort; backgroundEnd: RunServicePort; stopBackground(): void } {
  const toBackground: Listener<unknown>[] = [];
  const toBridge: Listener<unknown>[] = [];
  const bridgeGone: Listener<void>[] = [];
  const backgroundGone: Listener<void>[] = [];
  let open = true;
  const deliver = (listeners: Listener<unknown>[], message: unknown) => {
    if (!open) return;
    const copy = structuredClone(message);
    setTimeout(() => open && listeners.forEach((listener) => listener(copy)), 0);
  };
  const close = (notify: Listener<void>[]) => {
    if (!open) return;
    open = false;
    setTimeout(() => notify.forEach((listener) => listener()), 0);
  };
  const bridgeEnd: RunPort = {
    postMessage: (message) => deliver(toBackground, message),
    disconnect: () => close(backgroundGone),
    onMessage: { addListener: (listener) => void toBridge.push(listener) },
    onDisconnect: { addListener: (listener) => void bridgeGone.push(listener) },
  };
  const backgroundEnd: RunServicePort = {
    name: 'retinue-run',
    sender: sender && 'id' in sender ? sender : { id: browser.runtime.id, ...sender },
    postMessage: (message) => deliver(toBridge, message),
    disconnect: () => close(bridgeGone),
    onMessage: { addListener: (listener) => void toBackground.push(listener) },
    onDisconnect: { addListener: (listener) => void backgroundGone.push(listener) },
  };
  return { bridgeEnd, backgroundEnd, stopBackground: () => close(bridgeGone) };
}
