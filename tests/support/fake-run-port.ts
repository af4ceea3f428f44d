import type { RunPort } from '../../src/bridge/chat-turn-relay';
import type { BackgroundToBridgeMessage, BridgeToBackgroundMessage } from '../../src/messaging/run-port-messages';

/**
 * A stand-in for the background's end of a `runtime.Port`: records what the bridge posts and lets a
 * test answer as the background would. (The background itself is tested against the real bridge in e2e.)
 */
export class FakeBackground {
  readonly ports: FakeRunPort[] = [];
  open = (): RunPort => {
    const port = new FakeRunPort();
    this.ports.push(port);
    return port;
  };
  get last(): FakeRunPort {
    const port = this.ports.at(-1);
    if (!port) throw new Error('the bridge opened no run port');
    return port;
  }
}

export class FakeRunPort implements RunPort {
  readonly posted: BridgeToBackgroundMessage[] = [];
  disconnected = false;
  private readonly messageListeners: ((message: unknown) => void)[] = [];
  private readonly disconnectListeners: (() => void)[] = [];
  onMessage = { addListener: (listener: (message: unknown) => void) => void this.messageListeners.push(listener) };
  onDisconnect = { addListener: (listener: () => void) => void this.disconnectListeners.push(listener) };
  postMessage(message: BridgeToBackgroundMessage): void {
    this.posted.push(message);
  }
  disconnect(): void {
    this.disconnected = true;
  }
  /** The background sends a message. */
  answer(message: BackgroundToBridgeMessage | Record<string, unknown>): void {
    this.messageListeners.forEach((listener) => listener(message));
  }
  /** The background went away (service worker stopped). */
  drop(): void {
    this.disconnectListeners.forEach((listener) => listener());
  }
}

/** Waits until `check` passes (message ports deliver asynchronously). */
export async function eventually(check: () => void, attempts = 200): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      check();
      return;
    } catch (error) {
      if (attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}
