import { buildHostCall, type HostCallTemplate } from '../hosts/host-call-template';
import type { ProfileRanWith } from '../hosts/sillytavern/profile-preset';
import type { PageToBridgeMessage } from '../messaging/page-messages';

/** Relayed body chunks stay well below the bridge's per-message cap. */
const MAX_CHUNK_CHARS = 256_000;

type HostCallReply = Extract<PageToBridgeMessage, { type: `host-call-${string}` }>;
type HostCallReplyBody = HostCallReply extends infer Reply ? (Reply extends HostCallReply ? Omit<Reply, 'requestId' | 'callId'> : never) : never;

export interface HostCallOptions {
  originalFetch: typeof fetch;
  template: HostCallTemplate;
  body: Record<string, unknown>;
  signal: AbortSignal;
  send: (reply: HostCallReplyBody) => void;
  /** What a call on a connection profile runs with (model, preset, sampling), told with its start. */
  ranWith?: ProfileRanWith;
  /** The model's status behind the page's response (the host adapter knows how its server reports it). */
  statusOf?: (response: Response) => number;
}

/**
 * Makes one `host`-binding model call with the page's original fetch, its captured endpoint and
 * headers, and streams the response text back. The headers stay here: only status, content type
 * body text and a rate limit's Retry-After go back to the background.
 */
export async function performHostCall(options: HostCallOptions): Promise<void> {
  try {
    const { url, init } = buildHostCall(options.template, options.body);
    const response = await options.originalFetch(url, { ...init, signal: options.signal });
    const retryAfter = response.headers.get('retry-after')?.slice(0, 100);
    options.send({
      type: 'host-call-start',
      status: options.statusOf?.(response) ?? response.status,
      contentType: response.headers.get('content-type') ?? '',
      ...(retryAfter ? { retryAfter } : {}),
      ...(options.ranWith ? { ranWith: options.ranWith } : {}),
    });
    if (response.body) {
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        const text = done ? decoder.decode() : decoder.decode(value, { stream: true });
        for (let offset = 0; offset < text.length; offset += MAX_CHUNK_CHARS) {
          options.send({ type: 'host-call-chunk', text: text.slice(offset, offset + MAX_CHUNK_CHARS) });
        }
        if (done) break;
      }
    }
    options.send({ type: 'host-call-end' });
  } catch (error) {
    options.send({ type: 'host-call-error', message: String((error as Error)?.message ?? error).slice(0, 2_000) });
  }
}
