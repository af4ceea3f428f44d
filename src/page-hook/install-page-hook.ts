import type { HostAdapterId } from '../hosts/chat-turn-request';
import { adapterForUrl, isChatTurnBody } from '../hosts/detect-chat-turn';
import type { BridgeToPageMessage } from '../messaging/page-messages';
import { connectToBridge } from './bridge-channel';
import { parseJson, readBodyText, readFetchArguments, type FetchArguments } from './fetch-arguments';
import { performHostCall } from './host-call';
import { continueStreamWith } from './page-response-continuation';
import { readTavernChat, readTavernProfiles } from './sillytavern-page';
import { watchLoreActivations } from './lore-activations';

/** How long a chat turn waits for the bridge before it goes to the page's server untouched. */
const BRIDGE_WAIT_MS = 3_000;
const INSTALLED = Symbol.for('retinue.page-hook');

interface TakenRequest {
  /** The turn's endpoint and headers, for the run's host calls; they never leave the page. */
  url: string;
  headers: Record<string, string>;
  /** Sends the original request, unmodified, through the page's original fetch. */
  passThrough: () => Promise<Response>;
  resolve: (response: Response | Promise<Response>) => void;
  body?: ReadableStreamDefaultController<Uint8Array>;
  hostCalls: Map<string, AbortController>;
  /** The page has its reply; the entry stays only for the run's helpers' host calls. */
  answered?: boolean;
}

/**
 * Wraps the page's `fetch`. Requests that are not a chat turn go to the original fetch at once, with
 * the same arguments. A chat turn goes to the bridge; the page gets a `Response` whose body streams
 * what the run sends. Only what must happen in the page's world happens here: the bridge builds
 * bodies and makes sense of what the page hook reads. MAIN-world code: no zod, no extension APIs.
 */
export function installPageHook(target: Window & typeof globalThis): void {
  const marked = target as unknown as Record<symbol, boolean>;
  if (marked[INSTALLED]) return;
  marked[INSTALLED] = true;

  const originalFetch: typeof fetch = target.fetch.bind(target);
  const taken = new Map<string, TakenRequest>();
  /** Request ids need only be unique in this document: the bridge serves one port per document. */
  let turns = 0;
  const encoder = new TextEncoder();
  const channel = connectToBridge(target, (message) => handleBridgeMessage(message));
  /** The last chat turn: a helper run between turns calls the page's model with its endpoint and headers. */
  let last: TakenRequest | undefined;
  // The lore tools read which entries this turn activated (SillyTavern's world_info_activated).
  watchLoreActivations(target);

  const stopHostCalls = (entry: TakenRequest | undefined) => entry?.hostCalls.forEach((controller) => controller.abort());
  const finish = (requestId: string) => {
    stopHostCalls(taken.get(requestId));
    taken.delete(requestId);
  };

  const handleBridgeMessage = (message: Exclude<BridgeToPageMessage, { type: 'connected' }>) => {
    if (message.type === 'connection-profiles-request') return channel.send({ type: 'connection-profiles', queryId: message.queryId, ...readTavernProfiles(target) });
    const { requestId } = message;
    // A helper run between turns: its calls go out with the last turn's endpoint and headers, nothing reaches the chat.
    if (message.type === 'host-calls-open') return void (last && taken.set(requestId, { ...last, hostCalls: new Map(), answered: true }));
    const entry = taken.get(requestId);
    if (!entry) return;
    switch (message.type) {
      case 'pass-through':
        stopHostCalls(entry);
        // A stream that already showed progress gets the page's own answer in the same body.
        if (entry.body) void continueStreamWith(entry.body, entry.passThrough(), (answer) => channel.send({ type: 'pass-through-reply', requestId, ...answer })).then((done) => done && finish(requestId));
        else {
          taken.delete(requestId);
          entry.resolve(entry.passThrough());
        }
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
        else finish(requestId);
        entry.body?.close();
        break;
      case 'run-closed':
        finish(requestId);
        break;
      case 'host-call': {
        const { callId } = message;
        const controller = new AbortController();
        entry.hostCalls.set(callId, controller);
        void performHostCall({
          originalFetch,
          url: entry.url,
          headers: entry.headers,
          body: message.body,
          signal: controller.signal,
          send: (reply) => channel.send({ ...reply, requestId, callId }),
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
      const signal = args.signal;
      if (!connected) return originalFetch(input, init);
      if (signal?.aborted) return Promise.reject(signal.reason);
      return new Promise<Response>((resolve, fail) => {
        const requestId = `turn-${++turns}`;
        const entry: TakenRequest = {
          url: args.url,
          headers: args.headers(),
          passThrough: () => originalFetch(input, init),
          resolve,
          hostCalls: new Map(),
        };
        taken.set(requestId, (last = entry));
        signal?.addEventListener('abort', () => {
          if (!taken.has(requestId) || entry.answered) return;
          finish(requestId);
          channel.send({ type: 'run-abort', requestId });
          fail(signal.reason);
          entry.body?.error(signal.reason);
        });
        // The open chat as the page names it at the time of the request (the bridge reads the address itself).
        channel.send({ type: 'run-start', requestId, adapter, body, tavern: adapter === 'sillytavern' ? readTavernChat(target) : undefined });
      });
    });

  target.fetch = function retinueFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    let args: FetchArguments;
    try {
      args = readFetchArguments(input, init, target.location.href);
    } catch {
      return originalFetch(input, init);
    }
    const adapter = args.method === 'POST' ? adapterForUrl(args.url) : undefined;
    if (!adapter) return originalFetch(input, init);
    const decide = (text: string | undefined): Promise<Response> => {
      const body = parseJson(text);
      return isChatTurnBody(adapter, body) ? runChatTurn(input, init, args, adapter, body) : originalFetch(input, init);
    };
    const text = readBodyText(input, init);
    return typeof text === 'object' ? text.then(decide) : decide(text);
  };
}
