import { readFile, stat } from 'node:fs/promises';
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { repositoryRoot } from './build-extension';
import { forwardToModel, sendJson } from './http-forwarding';
import { handleSillyTavernGenerate, type SillyTavernBackendRecord } from './sillytavern-backend';

/** A request the fixture server received, for pass-through assertions. */
export interface RecordedFixtureRequest {
  method: string;
  /** Path and query, e.g. `/api/ping?from=openai-chat`. */
  url: string;
  /** The Host header: tells which of the two origins the page was on. */
  host: string;
  headers: IncomingHttpHeaders;
  /** The body as text (empty for GET). */
  body: string;
}

export interface FixtureServerOptions {
  /**
   * The OpenAI-compatible base URL (ending in `/v1`) the pages' model calls go to, normally the
   * scripted model server's. `/v1/*` on the fixture origins is proxied there, so pages call their own
   * origin (no CORS), as llama.cpp's web UI does. Can be set later with `setModelBaseUrl`.
   */
  modelBaseUrl?: string;
  /**
   * Sent as `Authorization: Bearer <key>` on the `/v1/*` proxy (a real endpoint for the demo), so
   * the key stays on the server and never reaches the page.
   */
  modelApiKey?: string;
  /** The token `GET /csrf-token` hands out and `/api/backends/...` requires; default a fixed string. */
  csrfToken?: string;
  /** More folders to serve, by URL prefix, e.g. `{ '/demo/': '/repo/scripts/demo' }`. */
  staticFolders?: Record<string, string>;
}

export interface FixtureServer {
  /** Two loopback origins served by the same server: switch one on and leave the other off. */
  origins: { primary: string; secondary: string };
  port: number;
  csrfToken: string;
  /** Every request so far, oldest first. */
  requests: RecordedFixtureRequest[];
  /** What the SillyTavern backend did with each generate request (forwarded body, target), oldest first. */
  sillyTavernGenerations: SillyTavernBackendRecord[];
  /**
   * A page URL with query parameters, on the primary origin unless `origin` says otherwise.
   *
   * @example
   * fixtures.pageUrl('/openai-chat/', { stream: '0' }); // http://127.0.0.1:PORT/openai-chat/?stream=0
   */
  pageUrl(pagePath: string, query?: Record<string, string>, origin?: string): string;
  setModelBaseUrl(url: string): void;
  close(): Promise<void>;
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

const maxBodyBytes = 4 * 1024 * 1024;

/**
 * Serves `tests/fixtures/` (the chat pages) on 127.0.0.1 at an ephemeral port, reachable as
 * `http://127.0.0.1:PORT` and `http://localhost:PORT` (two origins, both covered by the extension's
 * loopback host permissions). Besides files it answers:
 * - `GET /api/ping`, `POST /api/log`: unrelated requests the pages make (for pass-through checks);
 * - `GET /csrf-token`: `{ token }`, as SillyTavern serves it;
 * - `POST /api/backends/chat-completions/generate`: SillyTavern's Chat Completion backend (see
 *   sillytavern-backend.ts);
 * - `/v1/*`: proxied to the model server.
 * Pages opened with `?csp=strict` are served with a strict Content-Security-Policy.
 *
 * @example
 * const model = await startScriptedModelServer();
 * const fixtures = await startFixtureServer({ modelBaseUrl: model.baseURL });
 * await page.goto(fixtures.pageUrl('/openai-chat/'));
 * await fixtures.close();
 */
export async function startFixtureServer(options: FixtureServerOptions = {}): Promise<FixtureServer> {
  let modelBaseUrl = options.modelBaseUrl;
  const csrfToken = options.csrfToken ?? 'fixture-csrf-token-0123456789';
  const staticFolders: Array<[string, string]> = [
    ...Object.entries(options.staticFolders ?? {}),
    ['/', path.join(repositoryRoot, 'tests/fixtures')],
  ];
  const requests: RecordedFixtureRequest[] = [];
  const sillyTavernGenerations: SillyTavernBackendRecord[] = [];

  const server = http.createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      requests.push({
        method: request.method ?? 'GET',
        url: request.url ?? '/',
        host: request.headers.host ?? '',
        headers: request.headers,
        body: body.toString('utf8'),
      });
      await route({ request, response, body, csrfToken, modelBaseUrl, modelApiKey: options.modelApiKey, staticFolders, sillyTavernGenerations });
    })().catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: { message: `fixture server: ${String(error)}` } });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origins = { primary: `http://127.0.0.1:${port}`, secondary: `http://localhost:${port}` };

  return {
    origins,
    port,
    csrfToken,
    requests,
    sillyTavernGenerations,
    pageUrl(pagePath, query = {}, origin = origins.primary) {
      const url = new URL(pagePath, origin);
      for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
      return url.toString();
    },
    setModelBaseUrl(url) {
      modelBaseUrl = url;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface RouteContext {
  request: IncomingMessage;
  response: ServerResponse;
  body: Buffer;
  csrfToken: string;
  modelBaseUrl: string | undefined;
  modelApiKey: string | undefined;
  staticFolders: Array<[string, string]>;
  sillyTavernGenerations: SillyTavernBackendRecord[];
}

async function route(context: RouteContext): Promise<void> {
  const { request, response, body } = context;
  const url = new URL(request.url ?? '/', 'http://fixture.invalid');
  const method = request.method ?? 'GET';
  if (url.pathname === '/api/ping') {
    sendJson(response, 200, { pong: true, method, from: url.searchParams.get('from') });
  } else if (url.pathname === '/api/log' && method === 'POST') {
    sendJson(response, 200, { logged: body.length });
  } else if (url.pathname === '/csrf-token' && method === 'GET') {
    sendJson(response, 200, { token: context.csrfToken });
  } else if (url.pathname === '/api/backends/chat-completions/generate' && method === 'POST') {
    await handleSillyTavernGenerate({ request, response, body, csrfToken: context.csrfToken, fallbackBaseUrl: context.modelBaseUrl, log: context.sillyTavernGenerations });
  } else if (url.pathname.startsWith('/v1/')) {
    if (!context.modelBaseUrl) {
      sendJson(response, 502, { error: { message: 'The fixture server has no model base URL; pass modelBaseUrl to startFixtureServer.' } });
      return;
    }
    const target = `${context.modelBaseUrl.replace(/\/$/, '')}${url.pathname.slice('/v1'.length)}${url.search}`;
    await forwardToModel({ request, response, target, method, body: method === 'GET' ? undefined : body, apiKey: context.modelApiKey });
  } else if (method === 'GET' || method === 'HEAD') {
    if (url.searchParams.get('csp') === 'strict') {
      // A strict page policy like many hosted chat apps send: only the page's own scripts and origin.
      response.setHeader('content-security-policy', "default-src 'self'; script-src 'self'; connect-src 'self'; style-src 'self'");
    }
    await serveStatic(response, url.pathname, context.staticFolders);
  } else {
    sendJson(response, 404, { error: { message: `no fixture route for ${method} ${url.pathname}` } });
  }
}

async function serveStatic(response: ServerResponse, pathname: string, folders: Array<[string, string]>): Promise<void> {
  for (const [prefix, folder] of folders) {
    if (!pathname.startsWith(prefix)) continue;
    const relative = decodeURIComponent(pathname.slice(prefix.length));
    const resolved = path.resolve(folder, relative);
    if (resolved !== folder && !resolved.startsWith(folder + path.sep)) break;
    const file = await findFile(resolved);
    if (!file) continue;
    response.writeHead(200, {
      'content-type': contentTypes[path.extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
    });
    response.end(await readFile(file));
    return;
  }
  sendJson(response, 404, { error: { message: `no fixture file at ${pathname}` } });
}

/** The file itself, or a folder's index.html. */
async function findFile(resolved: string): Promise<string | undefined> {
  const info = await stat(resolved).catch(() => undefined);
  if (info?.isFile()) return resolved;
  if (info?.isDirectory()) {
    const index = path.join(resolved, 'index.html');
    if ((await stat(index).catch(() => undefined))?.isFile()) return index;
  }
  return undefined;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBodyBytes) throw new Error(`request body over ${maxBodyBytes} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
