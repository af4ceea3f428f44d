import { browser } from 'wxt/browser';
import { WARM_UP_PORT_NAME } from '../messaging/warm-up-port';
import { buildForFirstTurn } from './first-turn-readiness';

/** The slice of a `runtime.Port` the warm-up uses. */
export interface WarmUpPort {
  name: string;
  sender?: { id?: string };
  disconnect(): void;
}

/**
 * Answers the bridge's warm-up port (src/bridge/warm-up-on-input.ts): the port's arrival has started
 * the background, and the runtime a turn needs (the store opened, the settings read) is made ready
 * while the user is still writing. The port is closed at once; it holds nothing open.
 *
 * @example
 * installWarmUpService({ context: sharedBackgroundContext() });
 */
export function installWarmUpService(options: {
  /** The background context (background-context.ts): its runtime is made on first use. */
  context: { getRuntime(): Promise<unknown> };
  /** Where ports arrive; defaults to `browser.runtime.onConnect`. */
  connections?: { addListener(listener: (port: WarmUpPort) => void): void };
}): void {
  const connections = options.connections ?? (browser.runtime.onConnect as unknown as NonNullable<typeof options.connections>);
  connections.addListener((port) => {
    if (port.name !== WARM_UP_PORT_NAME) return;
    port.disconnect();
    if (port.sender?.id !== browser.runtime.id) return;
    // A failure here (the store cannot open) is the turn's to report, with its page to tell.
    void options.context.getRuntime().then(buildForFirstTurn).catch(() => undefined);
  });
}
