import { KEEP_ALIVE_INTERVAL_MS } from '../messaging/run-port-messages';
import type { RunPort } from './chat-turn-relay';

/**
 * A relay's end, once: its keep-alive stops, its run port closes, then `onEnd` runs. While the relay
 * lives, the port it holds now (it reconnects after a worker stop) gets a keep-alive every `ms`.
 */
export function keepRunPortAlive(port: () => RunPort | undefined, onEnd: () => void, ms = KEEP_ALIVE_INTERVAL_MS): { end(): void; readonly ended: boolean } {
  let ended = false;
  const timer = setInterval(() => port()?.postMessage({ type: 'keep-alive' }), ms);
  return {
    end() {
      if (ended) return;
      ended = true;
      clearInterval(timer);
      port()?.disconnect();
      onEnd();
    },
    get ended() {
      return ended;
    },
  };
}
