/**
 * A real OpenAI-compatible HTTP server on loopback for tests and benchmarks, scripted by request
 * content (not arrival order, since children run in parallel).
 *
 * @example
 * const server = await startScriptedModelServer();
 * server.queue('[[critic]]', { toolCalls: [{ name: 'task_return', arguments: { summary: 'ok' } }] });
 * server.script((request) => (request.toolNames.includes('agent_delegate') ? { content: 'Reply.' } : undefined));
 * const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test' });
 * ...
 * await server.close();
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import { carriesContent, carriesText, completionBody, completionChunks, errorKindFor, type CompletionShape } from './scripted-model-chunks';
import { endpointRefusal, withTextCalls, type ScriptedEndpointModes } from './scripted-model-modes';
import { recordRequest } from './scripted-model-requests';
import type {
  QueuedReply,
  ScriptHandler,
  ScriptedModelServerOptions,
  ScriptedReply,
  ScriptedRequest,
  ScriptedStatusFault,
  ScriptedTurn,
} from './scripted-model-types';

export type * from './scripted-model-types';
export type { ScriptedEndpointModes, TextCallFormat } from './scripted-model-modes';
export { messageText, peakOverlap } from './scripted-model-requests';

/** A queue of turns for the requests one matcher selects; see {@link ScriptedModelServer.queue}. */
export interface ScriptQueue {
  /** Turns not yet served. */
  readonly remaining: number;
  /** Adds more turns at the end. */
  push(...turns: QueuedReply[]): void;
}

export interface ScriptedModelServer {
  /** `http://127.0.0.1:<port>/v1`, ready for `new OpenAI({ baseURL })`. */
  readonly baseURL: string;
  readonly port: number;
  /** Every chat-completions request, in arrival order. */
  readonly requests: ScriptedRequest[];
  /** Requests no script answered (they got a 400 that says so). */
  readonly unmatched: ScriptedRequest[];
  /** What scripts threw (those requests got a 400 that says so). */
  readonly scriptErrors: unknown[];
  /** The endpoint behaviours in force; change them at any time. */
  readonly modes: ScriptedEndpointModes;
  /** Adds a handler; handlers are asked in the order added, the first reply wins. */
  script(handler: ScriptHandler): void;
  /**
   * Serves `turns` one by one to requests that `match` selects: a string matches a substring of the
   * system messages (a marker in a profile's prompt), a function decides itself. An empty queue passes.
   */
  queue(match: string | ((request: ScriptedRequest) => boolean), ...turns: QueuedReply[]): ScriptQueue;
  /** Forgets scripts and recorded requests. */
  reset(): void;
  /** Ends open sockets (hanging requests included) and stops listening. */
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** Starts a scripted server on 127.0.0.1, port 0 (ephemeral). */
export async function startScriptedModelServer(options: ScriptedModelServerOptions = {}): Promise<ScriptedModelServer> {
  const models = options.models ?? ['scripted-model'];
  const piecesPerString = options.piecesPerString ?? 3;
  const handlers: ScriptHandler[] = [];
  const requests: ScriptedRequest[] = [];
  const unmatched: ScriptedRequest[] = [];
  const scriptErrors: unknown[] = [];
  let completionCounter = 0;
  let toolCallCounter = 0;
  const modes: ScriptedEndpointModes = { ...options.modes };

  const httpServer = createServer((request, response) => {
    handleHttp(request, response).catch((error: unknown) => {
      // A script that throws is a bug in the test: answer 400 (never retried) and keep the error for the test to see.
      scriptErrors.push(error);
      if (!response.headersSent) {
        sendJson(response, 400, { error: { message: `The test's script threw: ${String(error)}`, type: 'invalid_request_error', code: 'script_error' } });
      } else response.destroy();
    });
  });

  async function handleHttp(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (request.method === 'GET' && path.endsWith('/models')) {
      sendJson(response, 200, { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'scripted' })) });
      return;
    }
    if (request.method !== 'POST' || !path.endsWith('/chat/completions')) {
      sendJson(response, 404, { error: { message: `No route ${request.method} ${path}`, type: 'invalid_request_error', code: 'not_found' } });
      return;
    }
    const rawBody = await readBody(request);
    let body: ChatCompletionCreateParams;
    try {
      body = JSON.parse(rawBody) as ChatCompletionCreateParams;
      if (!Array.isArray(body.messages)) throw new Error('`messages` must be an array');
    } catch (error) {
      sendJson(response, 400, { error: { message: `Bad request body: ${String(error)}`, type: 'invalid_request_error', code: 'bad_body' } });
      return;
    }
    const recorded = recordRequest(requests.length, body, request);
    requests.push(recorded);
    response.on('close', () => {
      recorded.answeredAt ??= Date.now();
      if (!response.writableFinished && recorded.outcome === 'pending') recorded.outcome = 'client-closed';
    });
    // A real endpoint refuses what it cannot take before any model sees the request.
    const reply = endpointRefusal(modes, body) ?? (await findReply(recorded));
    if (!reply) {
      unmatched.push(recorded);
      recorded.outcome = 'unmatched';
      const message = `No script matched request #${recorded.index} (system: ${JSON.stringify(recorded.systemText.slice(0, 120))}; last message: ${JSON.stringify(recorded.lastMessageText.slice(0, 120))}).`;
      sendJson(response, 400, { error: { message, type: 'invalid_request_error', code: 'unscripted' } }, recorded);
      return;
    }
    const delayMs = ('delayMs' in reply ? reply.delayMs : undefined) ?? options.defaultDelayMs ?? 0;
    if (delayMs > 0 && !(await waitUnlessClosed(response, delayMs))) return;
    await answer(recorded, reply, response);
  }

  async function findReply(recorded: ScriptedRequest): Promise<ScriptedReply | undefined> {
    for (const handler of handlers) {
      const reply = await handler(recorded);
      if (reply) return reply;
    }
    return undefined;
  }

  async function answer(recorded: ScriptedRequest, reply: ScriptedReply, response: ServerResponse): Promise<void> {
    if ('fault' in reply && reply.fault === 'status') {
      recorded.outcome = 'status';
      sendStatusFault(response, reply, recorded);
      return;
    }
    const scripted: ScriptedTurn = 'fault' in reply ? (reply.turn ?? { content: 'This stream will not finish as planned.' }) : reply;
    const turn = withTextCalls(scripted, modes.textCalls);
    const shape: CompletionShape = {
      completionId: `chatcmpl-scripted-${++completionCounter}`,
      model: typeof recorded.body.model === 'string' ? recorded.body.model : (models[0] ?? 'scripted-model'),
      created: Math.floor(Date.now() / 1000),
      toolCallIds: (turn.toolCalls ?? []).map((call) => call.id ?? `call_${++toolCallCounter}`),
      piecesPerString,
    };
    if (turn.verbatim && !('fault' in reply)) {
      await sendVerbatim(response, turn.verbatim, recorded);
      return;
    }
    if ((!recorded.stream || turn.ignoreStream) && !('fault' in reply)) {
      recorded.outcome = 'answered';
      const text = JSON.stringify(completionBody(recorded, turn, shape));
      sendText(response, 200, turn.cleanCut ? text.slice(0, Math.floor(text.length / 2)) : text, recorded);
      return;
    }
    const allChunks = completionChunks(recorded, turn, shape);
    // A clean cut: half the events, then the stream ends without a finish reason or [DONE].
    const chunks = turn.emptyStream ? [] : turn.cleanCut ? allChunks.slice(0, Math.max(1, Math.floor((allChunks.length - 1) / 2))) : allChunks;
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    response.flushHeaders();
    const limit = 'fault' in reply ? (reply.afterChunks ?? 0) : chunks.length;
    let textWritten = false;
    for (const chunk of chunks.slice(0, limit)) {
      if (response.destroyed) return;
      if (turn.slowly && carriesText(chunk)) {
        if (textWritten && !(await waitUnlessClosed(response, turn.slowly.delayMs))) return;
        textWritten = true;
      }
      if (carriesContent(chunk)) recorded.contentWrittenAt.push(Date.now());
      await writeAndDrain(response, `data: ${JSON.stringify(chunk)}\n\n`);
    }
    if ('fault' in reply) {
      if (reply.fault === 'cut-stream') {
        recorded.outcome = 'cut';
        recorded.answeredAt = Date.now();
        response.socket?.destroy();
      }
      // 'hang': leave the response open until the client aborts or the server closes.
      return;
    }
    recorded.outcome = turn.cleanCut ? 'cut' : 'answered';
    recorded.answeredAt = Date.now();
    response.end(turn.cleanCut ? '' : 'data: [DONE]\n\n');
  }

  function queue(match: string | ((request: ScriptedRequest) => boolean), ...turns: QueuedReply[]): ScriptQueue {
    const pending = [...turns];
    const selects = typeof match === 'string' ? (request: ScriptedRequest) => request.systemText.includes(match) : match;
    handlers.push((request) => {
      if (pending.length === 0 || !selects(request)) return undefined;
      const next = pending.shift() as QueuedReply;
      return typeof next === 'function' ? next(request) : next;
    });
    return {
      get remaining() {
        return pending.length;
      },
      push: (...more) => void pending.push(...more),
    };
  }

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (httpServer.address() as AddressInfo).port;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    unmatched,
    scriptErrors,
    modes,
    script: (handler) => void handlers.push(handler),
    queue,
    reset() {
      handlers.length = 0;
      requests.length = 0;
      unmatched.length = 0;
      scriptErrors.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      }),
  };
}

function sendJson(response: ServerResponse, status: number, body: unknown, recorded?: ScriptedRequest): void {
  sendText(response, status, JSON.stringify(body), recorded);
}

function sendText(response: ServerResponse, status: number, text: string, recorded?: ScriptedRequest): void {
  if (recorded) recorded.answeredAt = Date.now();
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

function sendStatusFault(response: ServerResponse, fault: ScriptedStatusFault, recorded: ScriptedRequest): void {
  recorded.answeredAt = Date.now();
  const kind = errorKindFor(fault.status);
  const error = { message: fault.message ?? `Scripted failure ${fault.status}.`, ...kind, ...(fault.code ? { code: fault.code } : {}), ...(fault.param ? { param: fault.param } : {}) };
  const text = JSON.stringify({ error });
  const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) };
  if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
  response.writeHead(fault.status, headers);
  response.end(text);
}

async function readBody(request: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of request) {
    const buffer = part as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new Error(`Request body over ${MAX_BODY_BYTES} bytes`);
    parts.push(buffer);
  }
  return Buffer.concat(parts).toString('utf8');
}

/** A recorded answer of a real server, as it sent it. */
async function sendVerbatim(response: ServerResponse, verbatim: NonNullable<ScriptedTurn['verbatim']>, recorded: ScriptedRequest): Promise<void> {
  recorded.outcome = 'answered';
  if ('json' in verbatim) {
    sendText(response, 200, JSON.stringify(verbatim.json), recorded);
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  response.flushHeaders();
  for (const line of verbatim.sse) {
    if (response.destroyed) return;
    if (line.startsWith('data: {')) recorded.contentWrittenAt.push(Date.now());
    await writeAndDrain(response, `${line}\n\n`);
  }
  recorded.answeredAt = Date.now();
  response.end();
}

function writeAndDrain(response: ServerResponse, text: string): Promise<void> {
  return new Promise((resolve) => {
    response.write(text, () => setImmediate(resolve));
  });
}

/** Waits `delayMs`; false when the client went away meanwhile. */
function waitUnlessClosed(response: ServerResponse, delayMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      response.off('close', onClose);
      resolve(true);
    }, delayMs);
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    response.once('close', onClose);
  });
}
