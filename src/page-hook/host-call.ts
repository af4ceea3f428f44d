import { hostCallInit } from '../hosts/host-call-template';
import type { PageToBridgeMessage } from '../messaging/page-messages';

/** Relayed body chunks stay well below the bridge's per-message cap. */
const MAX_CHUNK_CHARS = 256_000;

type HostCallReply = Extract<PageToBridgeMessage, { type: `host-call-${string}` }>;
type HostCallReplyBody = HostCallReply extends infer Reply ? (Reply extends HostCallReply ? Omit<Reply, 'requestId' | 'callId'> : never) : never;

export interface HostCallOptions {
  originalFetch: typeof fetch;
  /** The page's chat-turn endpoint and headers. */
  url: string;
  headers: Record<string, string>;
  /** The whole body, as the bridge built it. */
  body: Record<string, unknown>;
  signal: AbortSignal;
  send: (reply: HostCallReplyBody) => void;
}

/**
 * Makes one `host`-binding model call with the page's original fetch, its captured endpoint and
 * headers, and streams the response text back. The headers stay here: only status (and its reason
 * phrase, for the bridge), content type, body text and a rate limit's Retry-After go back.
 */
export async function performHostCall(options: HostCallOptions): Promise<void> {
  const { send } = options;
  try {
    const response = await options.originalFetch(options.url, { ...hostCallInit(options.headers, options.body), signal: options.signal });
    const header = (name: string) => response.headers.get(name) ?? '';
    // An undefined field is left out of the message's JSON.
    send({ type: 'host-call-start', status: response.status, statusText: response.statusText, contentType: header('content-type'), retryAfter: header('retry-after').slice(0, 100) || undefined });
    const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
    for (let read; reader && !(read = await reader.read()).done; ) {
      for (let offset = 0; offset < read.value.length; offset += MAX_CHUNK_CHARS) send({ type: 'host-call-chunk', text: read.value.slice(offset, offset + MAX_CHUNK_CHARS) });
    }
    send({ type: 'host-call-end' });
  } catch (error) {
    send({ type: 'host-call-error', message: String((error as Error)?.message ?? error).slice(0, 2_000) });
  }
}
