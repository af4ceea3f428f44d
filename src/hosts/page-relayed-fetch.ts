import type { HostCallReplyMessage } from '../messaging/run-port-messages';
import { RAN_WITH_HEADER } from '../model/ran-with-header';
import { connectionProfileRefusalError } from './sillytavern/profile-refusal';

/**
 * The most characters one host call's reply may carry (far beyond any chat answer). A page that sends
 * more fails that call, as a provider fault, instead of filling the background's memory.
 */
export const HOST_CALL_REPLY_MAX_CHARS = 8_000_000;

/** What the relay sends the page hook (through the bridge) to make or stop a host call. */
export type HostCallRequestMessage =
  | { type: 'host-call'; callId: string; body: Record<string, unknown>; connectionProfile?: string }
  | { type: 'host-call-abort'; callId: string };

/** A `fetch` for the openai SDK whose calls the page hook makes with the page's own fetch. */
export interface PageRelayedFetch {
  fetch: typeof globalThis.fetch;
  /** The same, for calls the page runs on one of its SillyTavern connection profiles (by name). */
  fetchThroughProfile(profileName: string): typeof globalThis.fetch;
  /** Feeds a reply the bridge relayed from the page hook. Replies for unknown calls are ignored. */
  deliver(message: HostCallReplyMessage): void;
  /** Fails every call in flight (the page went away); the SDK sees a network fault. */
  failAll(message: string): void;
}

interface PendingCall {
  resolve: (response: Response) => void;
  reject: (reason: unknown) => void;
  body?: ReadableStreamDefaultController<Uint8Array>;
  receivedChars: number;
  connectionProfile?: string;
}

/**
 * Creates the `host` binding's fetch. Each call sends its JSON body to the page hook, which merges it
 * into the page's host call template and fetches with the page's original fetch; the answer comes back
 * as a real `Response` whose body streams as the page receives it.
 */
export function createPageRelayedFetch(post: (message: HostCallRequestMessage) => void): PageRelayedFetch {
  const pending = new Map<string, PendingCall>();
  const encoder = new TextEncoder();
  let nextCallId = 1;

  const settle = (callId: string) => pending.delete(callId);

  const relayedFetch = (init: RequestInit | undefined, connectionProfile: string | undefined): Promise<Response> => {
    if (typeof init?.body !== 'string') return Promise.reject(new TypeError('A host call needs a JSON text body.'));
    const body = JSON.parse(init.body) as Record<string, unknown>;
    const callId = `call-${nextCallId++}`;
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<Response>((resolve, reject) => {
      const call: PendingCall = { resolve, reject, receivedChars: 0, ...(connectionProfile !== undefined ? { connectionProfile } : {}) };
      pending.set(callId, call);
      signal?.addEventListener('abort', () => {
        if (!pending.has(callId)) return;
        settle(callId);
        post({ type: 'host-call-abort', callId });
        reject(signal.reason);
        call.body?.error(signal.reason);
      });
      post({ type: 'host-call', callId, body, ...(connectionProfile !== undefined ? { connectionProfile } : {}) });
    });
  };

  return {
    fetch: ((_input: RequestInfo | URL, init?: RequestInit) => relayedFetch(init, undefined)) as typeof globalThis.fetch,
    fetchThroughProfile: (profileName) => ((_input: RequestInfo | URL, init?: RequestInit) => relayedFetch(init, profileName)) as typeof globalThis.fetch,
    deliver(message) {
      const call = pending.get(message.callId);
      if (!call) return;
      switch (message.type) {
        case 'host-call-start': {
          const stream = new ReadableStream<Uint8Array>({ start: (controller) => void (call.body = controller) });
          const headers: Record<string, string> = { 'content-type': message.contentType };
          if (message.retryAfter !== undefined) headers['retry-after'] = message.retryAfter;
          // Header values are Latin-1: the report (a preset's name may be any language) goes URI-encoded.
          if (message.ranWith !== undefined) headers[RAN_WITH_HEADER] = encodeURIComponent(JSON.stringify(message.ranWith));
          call.resolve(new Response(stream, { status: message.status, headers }));
          break;
        }
        case 'host-call-chunk':
          call.receivedChars += message.text.length;
          if (call.receivedChars > HOST_CALL_REPLY_MAX_CHARS) {
            settle(message.callId);
            post({ type: 'host-call-abort', callId: message.callId });
            const error = new TypeError(`The page's reply to a model call passed ${HOST_CALL_REPLY_MAX_CHARS} characters, Retinue's limit for one reply, so the call was stopped.`);
            call.reject(error);
            call.body?.error(error);
            break;
          }
          call.body?.enqueue(encoder.encode(message.text));
          break;
        case 'host-call-end':
          settle(message.callId);
          call.body?.close();
          break;
        case 'host-call-refused': {
          settle(message.callId);
          const details = { ...(message.source ? { source: message.source } : {}), ...(message.preset ? { preset: message.preset } : {}) };
          call.reject(connectionProfileRefusalError(message.refusal, call.connectionProfile ?? '', details));
          break;
        }
        case 'host-call-error': {
          settle(message.callId);
          const error = new TypeError(`The page's request failed: ${message.message}`);
          call.reject(error);
          call.body?.error(error);
          break;
        }
      }
    },
    failAll(message) {
      for (const [callId, call] of pending) {
        settle(callId);
        const error = new TypeError(message);
        call.reject(error);
        call.body?.error(error);
      }
    },
  };
}
