import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeUpstream, sendJson } from './http-forwarding';
import { isSourceShape, providerBody, sourceRefusal, streamedReply, wholeReply, type SourceShape } from './sillytavern-source-shapes';

/**
 * Request fields an OpenAI-compatible provider understands. Everything else in the page's body
 * (`type`, `chat_completion_source`, `custom_url`, ...) is SillyTavern's own and stays on the server.
 */
const providerFields = [
  'model', 'messages', 'stream', 'temperature', 'top_p', 'max_tokens', 'max_completion_tokens',
  'frequency_penalty', 'presence_penalty', 'stop', 'n', 'seed', 'logit_bias', 'logprobs', 'top_logprobs',
  'tools', 'tool_choice', 'parallel_tool_calls', 'response_format', 'user', 'stream_options', 'reasoning_effort',
];

/**
 * What the fixture SillyTavern backend did with each generate request, for assertions.
 */
export interface SillyTavernBackendRecord {
  type: unknown;
  source: unknown;
  /** Where the request was forwarded, or undefined when refused. */
  target?: string;
  /** The secret the server would read the provider's key by (a connection profile's `secret-id`). */
  secretId?: unknown;
  /** The body sent to the provider. */
  forwardedBody?: Record<string, unknown>;
  /** The `stream` flag of the page's (or Retinue's) request. */
  stream?: unknown;
  refusedWith?: number;
}

/**
 * `POST /api/backends/chat-completions/generate` as SillyTavern's server answers it for an
 * OpenAI-compatible Chat Completion source (TOOLCHAIN.md): the `X-CSRF-Token` header must match;
 * for `chat_completion_source: 'custom'` the body goes to `custom_url + '/chat/completions'` (other
 * sources go to `fallbackBaseUrl`, standing in for their provider); `tools` and `tool_choice` pass
 * through; a streamed answer is the provider's SSE passed back unchanged; a provider error comes
 * back with its status and an `{error: {message}}` body.
 */
export async function handleSillyTavernGenerate(options: {
  request: IncomingMessage;
  response: ServerResponse;
  body: Buffer;
  csrfToken: string;
  fallbackBaseUrl: string | undefined;
  /** Where each handled request is recorded. */
  log: SillyTavernBackendRecord[];
}): Promise<void> {
  const { request, response, log } = options;
  if (request.headers['x-csrf-token'] !== options.csrfToken) {
    log.push({ type: undefined, source: undefined, refusedWith: 403 });
    sendJson(response, 403, { error: { message: 'Invalid CSRF token. Please refresh the page.' } });
    return;
  }
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(options.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    log.push({ type: undefined, source: undefined, refusedWith: 400 });
    sendJson(response, 400, { error: { message: 'The request body is not JSON.' } });
    return;
  }
  const source = payload.chat_completion_source;
  const baseUrl = source === 'custom' ? payload.custom_url : options.fallbackBaseUrl;
  if (typeof baseUrl !== 'string' || baseUrl === '') {
    log.push({ type: payload.type, source, refusedWith: 400 });
    sendJson(response, 400, { error: { message: `No endpoint for chat completion source ${String(source)}: set custom_url.` } });
    return;
  }
  const forwardedBody: Record<string, unknown> = {};
  for (const field of providerFields) if (payload[field] !== undefined) forwardedBody[field] = payload[field];
  const target = `${baseUrl.replace(/\/$/, '')}/chat/completions`;
  if (isSourceShape(source)) {
    await answerInSourceShape({ source, payload, forwardedBody, target, response, log });
    return;
  }
  log.push({ type: payload.type, source, target, forwardedBody, ...(payload.secret_id !== undefined ? { secretId: payload.secret_id } : {}) });

  const upstreamAbort = new AbortController();
  response.on('close', () => {
    if (!response.writableFinished) upstreamAbort.abort();
  });
  let upstream: Response;
  try {
    upstream = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(forwardedBody),
      signal: upstreamAbort.signal,
    });
  } catch (error) {
    if (!response.destroyed) sendJson(response, 502, { error: { message: `Could not reach ${target}: ${String(error)}` } });
    return;
  }
  if (!upstream.ok) {
    sendJson(response, upstream.status, { error: { message: await providerErrorMessage(upstream) } });
    return;
  }
  await pipeUpstream(upstream, response, upstreamAbort.signal);
}

/** A Claude or Google source: the scripted server's answer, reshaped as SillyTavern sends that source's replies. */
async function answerInSourceShape(options: {
  source: SourceShape;
  payload: Record<string, unknown>;
  forwardedBody: Record<string, unknown>;
  target: string;
  response: ServerResponse;
  log: SillyTavernBackendRecord[];
}): Promise<void> {
  const { source, payload, response } = options;
  const refusal = sourceRefusal(source, options.forwardedBody);
  if (refusal) {
    options.log.push({ type: payload.type, source, stream: payload.stream, refusedWith: 500 });
    // SillyTavern logs the provider's words on its console and tells the page no more than this.
    sendJson(response, 500, { error: true, fixtureReason: refusal });
    return;
  }
  const forwardedBody = providerBody(source, options.forwardedBody);
  options.log.push({ type: payload.type, source, target: options.target, forwardedBody, stream: payload.stream });
  const upstream = await fetch(options.target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(forwardedBody) }).catch(
    () => undefined,
  );
  if (!upstream?.ok) {
    sendJson(response, 500, { error: true });
    return;
  }
  const completion: unknown = await upstream.json();
  if (payload.stream === true) {
    response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    response.end(streamedReply(source, completion));
    return;
  }
  sendJson(response, 200, wholeReply(source, completion));
}

async function providerErrorMessage(upstream: Response): Promise<string> {
  const text = await upstream.text().catch(() => '');
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === 'string') return parsed.error.message;
  } catch {
    // not JSON: use the text
  }
  return text.trim() || `The provider answered ${upstream.status} ${upstream.statusText}`;
}
