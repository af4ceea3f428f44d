import { hostCallStatus } from '../hosts/detect-chat-turn';
import type { TavernProfilesState } from '../hosts/sillytavern/page-state';
import type { ProfileRanWith } from '../hosts/sillytavern/profile-preset';
import type { BridgeToPageMessage, PageToBridgeMessage } from '../messaging/page-messages';
import type { BackgroundToBridgeMessage } from '../messaging/run-port-messages';
import type { RunPort } from './chat-turn-relay';
import { planHostCall } from './host-call-plan';

type HostCallOrder = Extract<BackgroundToBridgeMessage, { type: 'host-call' | 'host-call-abort' }>;

/** The chat turn host calls are made for: its body is every call's template, its adapter reads statuses. */
export interface HostCallTurn {
  adapter: Extract<PageToBridgeMessage, { type: 'run-start' }>['adapter'];
  body: Record<string, unknown>;
}

export interface HostCallRelayOptions {
  requestId: string;
  toPage: (message: BridgeToPageMessage) => void;
  /** The run's port now (a relay reconnects after a worker stop). */
  port: () => RunPort | undefined;
  /** The turn the calls go out as: the chat turn's own, or for a helper between turns the page's last one. */
  turn: () => HostCallTurn | undefined;
  /** Reads the page's SillyTavern connection profiles and presets, for a call on a profile. */
  readProfiles: () => Promise<TavernProfilesState | undefined>;
}

/** The host calls one run makes through the page, as a relay carries them (a chat turn's, or a helper's between turns). */
export interface HostCallRelay {
  /** A call (or its abort) from the background: its body is built here and handed to the page under the relay's request id. */
  fromBackground(message: HostCallOrder): void;
  /** The page's answer to an open call, passed to the background; anything else is dropped. */
  fromPage(message: PageToBridgeMessage): void;
  /** The run port went away: the page stops every open call. */
  abortAll(): void;
}

export function createHostCallRelay(options: HostCallRelayOptions): HostCallRelay {
  const { requestId, toPage } = options;
  const open = new Set<string>();
  /** What each open call on a connection profile runs with, told to the background with its start. */
  const ranWith = new Map<string, ProfileRanWith>();

  /** Builds the call's body (on a profile, from what the page holds now) and hands it to the page hook. */
  const start = async (callId: string, callBody: Record<string, unknown>, profileName: string | undefined) => {
    const turn = options.turn();
    if (!turn) {
      open.delete(callId);
      options.port()?.postMessage({ type: 'host-call-error', callId, message: 'The page has had no chat turn since it loaded; send a message in the chat first.' });
      return;
    }
    // A page that does not answer has no Connection Manager to run the call on.
    const profile = profileName === undefined ? undefined : { name: profileName, state: (await options.readProfiles()) ?? {} };
    if (!open.has(callId)) return;
    const plan = planHostCall(turn.body, callBody, profile);
    if (!plan.ok) {
      open.delete(callId);
      const { ok: _ok, ...refusal } = plan;
      options.port()?.postMessage({ type: 'host-call-refused', callId, ...refusal });
      return;
    }
    if (plan.ranWith) ranWith.set(callId, plan.ranWith);
    toPage({ type: 'host-call', requestId, callId, body: plan.body });
  };

  return {
    fromBackground(message) {
      if (message.type === 'host-call-abort') {
        open.delete(message.callId);
        toPage({ type: 'host-call-abort', requestId, callId: message.callId });
        return;
      }
      open.add(message.callId);
      void start(message.callId, message.body, message.connectionProfile);
    },
    fromPage(message) {
      if (message.type === 'run-start' || message.type === 'run-abort' || message.type === 'connection-profiles' || message.type === 'pass-through-reply' || !open.has(message.callId)) return;
      if (message.type === 'host-call-end' || message.type === 'host-call-error') open.delete(message.callId);
      const { requestId: _requestId, ...relayed } = message;
      const port = options.port();
      if (relayed.type !== 'host-call-start') {
        port?.postMessage(relayed);
        return;
      }
      // The model's status behind the host's, and what a call on a profile runs with.
      const { statusText, ...started } = relayed;
      const profile = ranWith.get(relayed.callId);
      ranWith.delete(relayed.callId);
      const turn = options.turn();
      const status = turn ? hostCallStatus(turn.adapter, { status: started.status, statusText: statusText ?? '' }) : started.status;
      port?.postMessage({ ...started, status, ...(profile ? { ranWith: profile } : {}) });
    },
    abortAll() {
      for (const callId of open) toPage({ type: 'host-call-abort', requestId, callId });
      open.clear();
    },
  };
}
