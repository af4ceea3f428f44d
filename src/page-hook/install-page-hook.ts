import type { HostAdapterId } from '../hosts/chat-turn-request';
import { adapterForUrl, detectChatTurn, hostCallStatus } from '../hosts/detect-chat-turn';
import { createHostCallTemplate, type HostCallTemplate } from '../hosts/host-call-template';
import { listConnectionProfiles } from '../hosts/sillytavern/connection-profiles';
import { listCompletionPresets } from '../hosts/sillytavern/profile-preset';
import type { BridgeToPageMessage } from '../messaging/page-messages';
import { connectToBridge } from './bridge-channel';
import { parseJson, readBodyText, readFetchArguments, type FetchArguments } from './fetch-arguments';
import { performHostCall } from './host-call';
import { profileCall } from './profile-call';
import { continueStreamWith } from './page-response-continuation';
import { readChatFromAddress } from './address-chat';
import { readSillyTavernChat } from './sillytavern-chat';
import { watchLoreActivations } from './lore-activations';

/** How long a chat turn waits for the bridge before it goes to the page's server untouched. */
const BRIDGE_WAIT_MS = 3_000;
const INSTALLED = Symbol.for('retinue.page-hook');
/** The bridge takes at most this many connection profiles (MAX_LISTED_PROFILES; no zod import here). */
const MAX_PROFILES = 200;

interface TakenRequest {
  adapter: HostAdapterId;
  template: HostCallTemplate;
  /** Sends the original request, unmodified, through the page's original fetch. */
  passThrough: () => Promise<Response>;
  resolve: (response: Response | Promise<Response>) => void;
  fail: (reason: unknown) => void;
  body?: ReadableStreamDefaultController<Uint8Array>;
  hostCalls: Map<string, AbortController>;
  /** The page has its reply; the entry stays only for the run's helpers' host calls. */
  answered?: boolean;
}

/**
 * Wraps the page's `fetch`. Requests that are not a chat turn go to the original fetch at once, with
 * the same arguments. A chat turn goes to the bridge; the page gets a `Response` whose body streams
 * what the run sends. MAIN-world code: no zod, no extension APIs.
 */
export function installPageHook(target: Window & typeof globalThis): void {
  const marked = target as unknown as Record<symbol, boolean>;
  if (marked[INSTALLED]) return;
  marked[INSTALLED] = true;

  const originalFetch: typeof fetch = target.fetch.bind(target);
  const taken = new Map<string, TakenRequest>();
  const encoder = new TextEncoder();
  const channel = connectToBridge(target, (message) => handleBridgeMessage(message));
  /** The last chat turn's adapter and request: a helper run between turns calls the page's model as that turn did. */
  let lastTurn: Pick<TakenRequest, 'adapter' | 'template'> | undefined;
  // The lore tools read which entries this turn activated (SillyTavern's world_info_activated).
  watchLoreActivations(target);

  const finish = (requestId: string) => {
    const entry = taken.get(requestId);
    taken.delete(requestId);
    entry?.hostCalls.forEach((controller) => controller.abort());
  };

  const handleBridgeMessage = (message: BridgeToPageMessage) => {
    if (message.type === 'connected') return;
    if (message.type === 'connection-profiles-request') {
      const presets = listCompletionPresets(target)?.slice(0, MAX_PROFILES);
      channel.send({ type: 'connection-profiles', queryId: message.queryId, profiles: listConnectionProfiles(target)?.slice(0, MAX_PROFILES) ?? null, ...(presets ? { presets } : {}) });
      return;
    }
    if (message.type === 'host-calls-open') {
      const ignore = () => undefined;
      if (lastTurn) taken.set(message.requestId, { ...lastTurn, passThrough: () => Promise.reject(new Error('Not a chat turn.')), resolve: ignore, fail: ignore, hostCalls: new Map(), answered: true });
      return;
    }
    const entry = taken.get(message.requestId);
    if (!entry) {
      // A call nobody can make (the page reloaded since its last chat turn) is answered, never left waiting.
      if (message.type === 'host-call') channel.send({ type: 'host-call-error', requestId: message.requestId, callId: message.callId, message: 'The page has had no chat turn since it loaded; send a message in the chat first.' });
      return;
    }
    switch (message.type) {
      case 'pass-through':
        finish(message.requestId);
        // A stream that already showed progress gets the page's own answer in the same body.
        if (entry.body) void continueStreamWith(entry.body, entry.passThrough());
        else entry.resolve(entry.passThrough());
        break;
      case 'response-start': {
        const body = new ReadableStream<Uint8Array>({ start: (controller) => void (entry.body = controller) });
        entry.resolve(new Response(body, { status: message.status, headers: { 'content-type': message.contentType } }));
        break;
      }
      case 'response-chunk':
        entry.body?.enqueue(encoder.encode(message.text));
        break;
      case 'response-end':
        if (message.hostCallsContinue) entry.answered = true;
        else finish(message.requestId);
        entry.body?.close();
        break;
      case 'run-closed':
        finish(message.requestId);
        break;
      case 'host-call': {
        const { requestId, callId } = message;
        const call = profileCall(target, entry.template, message.connectionProfile, message.body);
        if (!call.ok) {
          const { refusal, source, preset } = call;
          channel.send({ type: 'host-call-refused', requestId, callId, refusal, ...(source ? { source } : {}), ...(preset ? { preset } : {}) });
          break;
        }
        const controller = new AbortController();
        entry.hostCalls.set(message.callId, controller);
        void performHostCall({
          originalFetch,
          template: call.template,
          body: call.body,
          ...(call.ranWith ? { ranWith: call.ranWith } : {}),
          signal: controller.signal,
          send: (reply) => channel.send({ ...reply, requestId, callId }),
          statusOf: (response) => hostCallStatus(entry.adapter, response),
        }).finally(() => entry.hostCalls.delete(callId));
        break;
      }
      case 'host-call-abort':
        entry.hostCalls.get(message.callId)?.abort();
        break;
    }
  };

  const runChatTurn = (input: RequestInfo | URL, init: RequestInit | undefined, args: FetchArguments, adapter: HostAdapterId, body: Record<string, unknown>): Promise<Response> =>
    channel.whenConnected(BRIDGE_WAIT_MS).then((connected) => {
      if (!connected) return originalFetch(input, init);
      const signal = args.signal;
      if (signal?.aborted) return Promise.reject(abortReason(signal));
      return new Promise<Response>((resolve, reject) => {
        const requestId = Math.random().toString(36).slice(2) + Date.now().toString(36);
        const entry: TakenRequest = {
          adapter,
          template: createHostCallTemplate(args.url, args.headers(), body),
          passThrough: () => originalFetch(input, init),
          resolve,
          fail: (reason) => {
            reject(reason);
            entry.body?.error(reason);
          },
          hostCalls: new Map(),
        };
        taken.set(requestId, entry);
        lastTurn = { adapter, template: entry.template };
        signal?.addEventListener('abort', () => {
          if (!taken.has(requestId) || entry.answered) return;
          finish(requestId);
          channel.send({ type: 'run-abort', requestId });
          entry.fail(abortReason(signal));
        });
        // The page's own ids, else a chat route in its address at the time of the request.
        const chat = (adapter === 'sillytavern' ? readSillyTavernChat(target, body['type']) : undefined) ?? readChatFromAddress(target.location.href);
        channel.send({ type: 'run-start', requestId, adapter, body, ...(chat ? { chat } : {}) });
      });
    });

  const decide = (input: RequestInfo | URL, init: RequestInit | undefined, args: FetchArguments, text: string | undefined): Promise<Response> => {
    const body = parseJson(text);
    const adapter = detectChatTurn({ method: args.method, url: args.url, body });
    if (!adapter) return originalFetch(input, init);
    return runChatTurn(input, init, args, adapter, body as Record<string, unknown>);
  };

  target.fetch = function retinueFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    let args: FetchArguments;
    try {
      args = readFetchArguments(input, init, target.location.href);
    } catch {
      return originalFetch(input, init);
    }
    if (args.method !== 'POST' || !adapterForUrl(args.url)) return originalFetch(input, init);
    const text = readBodyText(input, init);
    return typeof text === 'object' ? text.then((read) => decide(input, init, args, read)) : decide(input, init, args, text);
  };
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}
