import type { PanelPort } from '../../src/background/panel-service';
import type { BackgroundToPanel } from '../../src/messaging/panel-messages';

/** A side panel's Port as the background sees it: what the panel sends, and what it received. */
export interface FakePanelPort extends PanelPort {
  received: BackgroundToPanel[];
  send(message: unknown): void;
  disconnect(): void;
}

export function createFakePanelPort(options: { name?: string; url?: string } = {}): FakePanelPort {
  const messageListeners: Array<(message: unknown) => void> = [];
  const disconnectListeners: Array<() => void> = [];
  const received: BackgroundToPanel[] = [];
  return {
    name: options.name ?? 'panel',
    sender: { url: options.url ?? 'chrome-extension://retinue/sidepanel.html' },
    received,
    postMessage: (message) => void received.push(message),
    onMessage: { addListener: (listener) => void messageListeners.push(listener) },
    onDisconnect: { addListener: (listener) => void disconnectListeners.push(listener) },
    send: (message) => messageListeners.forEach((listener) => listener(message)),
    disconnect: () => disconnectListeners.forEach((listener) => listener()),
  };
}

/** A `runtime.onConnect` stand-in: `connect(port)` hands a Port to whoever listens. */
export function createConnectionSource() {
  const listeners: Array<(port: PanelPort) => void> = [];
  return {
    addListener: (listener: (port: PanelPort) => void) => void listeners.push(listener),
    connect: (port: PanelPort) => listeners.forEach((listener) => listener(port)),
  };
}
