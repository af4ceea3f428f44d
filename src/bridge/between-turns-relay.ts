import type { BridgeToPageMessage, PageToBridgeMessage } from '../messaging/page-messages';
import { backgroundToBridgeMessageSchema } from '../messaging/run-port-messages';
import type { RunPort } from './chat-turn-relay';
import type { TavernProfilesState } from '../hosts/sillytavern/page-state';
import { createHostCallRelay, type HostCallTurn } from './host-call-relay';
import { keepRunPortAlive } from './run-port-keep-alive';

export interface BetweenTurnsRelayOptions {
  requestId: string;
  runId: string;
  agentId: string;
  openPort: () => RunPort;
  toPage: (message: BridgeToPageMessage) => void;
  /** The page's last chat turn: the helper's calls go out as that turn's did. */
  lastTurn: () => HostCallTurn | undefined;
  readProfiles: () => Promise<TavernProfilesState | undefined>;
  onEnd: () => void;
  keepAliveMs?: number;
  /** Reconnections after the background went away (it resumes the run from the store). */
  maxReconnects?: number;
}

/**
 * A helper the user ran between turns (the side panel's Run button): nothing goes into the chat, so
 * the relay only carries the run's host calls between the background and the page hook (under its
 * own request id) until the run ends. If the background goes away mid-run, it reconnects with the
 * run id and the background resumes the run.
 */
export function createBetweenTurnsRelay(options: BetweenTurnsRelayOptions): { fromPage(message: PageToBridgeMessage): void } {
  const { requestId } = options;
  let port: RunPort | undefined;
  const hostCalls = createHostCallRelay({ requestId, toPage: options.toPage, port: () => port, turn: options.lastTurn, readProfiles: options.readProfiles });
  let reconnects = 0;
  const life = keepRunPortAlive(
    () => port,
    () => {
      options.toPage({ type: 'run-closed', requestId });
      options.onEnd();
    },
    options.keepAliveMs,
  );
  const end = () => life.end();

  const onBackground = (raw: unknown) => {
    const parsed = backgroundToBridgeMessageSchema().safeParse(raw);
    if (!parsed.success || life.ended) return;
    const message = parsed.data;
    if (message.type === 'host-call' || message.type === 'host-call-abort') hostCalls.fromBackground(message);
    else if (message.type === 'run-closed' || message.type === 'run-reply' || message.type === 'run-failed' || message.type === 'pass-through') {
      end();
    }
  };

  const connect = (first: { type: 'run-between'; runId: string; agentId: string } | { type: 'run-resume'; runId: string }) => {
    port = options.openPort();
    port.onMessage.addListener(onBackground);
    port.onDisconnect.addListener(() => {
      if (life.ended) return;
      hostCalls.abortAll();
      if (reconnects >= (options.maxReconnects ?? 3)) return end();
      reconnects += 1;
      connect({ type: 'run-resume', runId: options.runId });
    });
    port.postMessage(first);
  };

  options.toPage({ type: 'host-calls-open', requestId });
  connect({ type: 'run-between', runId: options.runId, agentId: options.agentId });

  return {
    fromPage(message) {
      if (!life.ended) hostCalls.fromPage(message);
    },
  };
}
