import type { IncomingMessage, ServerResponse } from 'node:http';

/** Sends a JSON reply. */
export function sendJson(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  response.end(JSON.stringify(value));
}

/** Headers worth passing from the page's request to the model server. */
const forwardedRequestHeaders = ['content-type', 'authorization', 'accept'];

/**
 * Forwards a request to the model server and streams its answer back byte for byte (status,
 * content type and body unchanged, SSE included). When the page goes away mid-answer the upstream
 * request is aborted too, as a real proxy does.
 *
 * @example
 * await forwardToModel({ request, response, target: 'http://127.0.0.1:9/v1/chat/completions', method: 'POST', body });
 */
export async function forwardToModel(options: {
  request: IncomingMessage;
  response: ServerResponse;
  target: string;
  method: string;
  body: Buffer | string | undefined;
  /** Sent as `Authorization: Bearer <key>`, replacing whatever the page sent. */
  apiKey?: string;
}): Promise<void> {
  const { request, response } = options;
  const upstreamAbort = new AbortController();
  response.on('close', () => {
    if (!response.writableFinished) upstreamAbort.abort();
  });
  const headers: Record<string, string> = {};
  for (const name of forwardedRequestHeaders) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  let upstream: Response;
  try {
    upstream = await fetch(options.target, {
      method: options.method,
      headers,
      body: options.body === undefined ? undefined : new Uint8Array(Buffer.from(options.body)),
      signal: upstreamAbort.signal,
    });
  } catch (error) {
    if (!response.headersSent && !response.destroyed) {
      sendJson(response, 502, { error: { message: `The model server at ${options.target} could not be reached: ${String(error)}` } });
    }
    return;
  }
  await pipeUpstream(upstream, response, upstreamAbort.signal);
}

/** Copies an upstream fetch Response to the page's response, chunk by chunk as it arrives. */
export async function pipeUpstream(upstream: Response, response: ServerResponse, signal: AbortSignal): Promise<void> {
  response.writeHead(upstream.status, {
    'content-type': upstream.headers.get('content-type') ?? 'application/octet-stream',
    'cache-control': 'no-store',
  });
  if (!upstream.body) {
    response.end();
    return;
  }
  const reader = upstream.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      response.write(value);
    }
    response.end();
  } catch {
    // The page or the model server went away mid-answer; end what was sent as a cut stream.
    if (!signal.aborted) response.destroy();
  }
}
