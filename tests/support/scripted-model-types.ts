import type { IncomingHttpHeaders } from 'node:http';
import type { ScriptedEndpointModes } from './scripted-model-modes';
import type {
  ChatCompletionCreateParams,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';

/** Token counts the server reports; computed from text lengths when a reply gives none. */
export interface ScriptedUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** One tool call the scripted model makes. `arguments` as a string is sent verbatim (for bad JSON). */
export interface ScriptedToolCall {
  name: string;
  arguments: Record<string, unknown> | string;
  /** Defaults to a unique `call_<n>`. */
  id?: string;
}

/** An ordinary assistant turn. */
export interface ScriptedTurn {
  content?: string;
  /** Streamed as `delta.reasoning_content`, as llama.cpp and DeepSeek do. */
  reasoning?: string;
  toolCalls?: ScriptedToolCall[];
  /** Wait this long before answering (abortable by the client). */
  delayMs?: number;
  /**
   * Writes slowly, as a model does: reasoning and content in `pieces` deltas each, `delayMs` apart
   * (a client that goes away stops it). Each content delta's time lands in `contentWrittenAt`.
   */
  slowly?: { pieces: number; delayMs: number };
  usage?: ScriptedUsage;
  /** Sends no usage at all, as some providers do. */
  omitUsage?: boolean;
  /** Answers with plain JSON even when the request asked for a stream, as a few servers do. */
  ignoreStream?: boolean;
  /** Defaults to `tool_calls` when there are tool calls, else `stop`; `null` sends none (a JSON answer cut short). */
  finishReason?: string | null;
  /**
   * Ends the answer cleanly but early: a stream stops after half its events with no finish reason
   * and no `[DONE]`; a JSON body (with `ignoreStream`) is cut in the middle.
   */
  cleanCut?: boolean;
  /** A streamed answer with no events at all, only `[DONE]`. */
  emptyStream?: boolean;
  /**
   * An answer as a real server sent it (a corpus replay), written verbatim: SSE lines (each
   * `data: …`, `[DONE]` included), or a JSON body. The rest of the turn is ignored.
   */
  verbatim?: { sse: readonly string[] } | { json: unknown };
}

/** An HTTP error with an OpenAI-shaped body `{ error: { message, type, code } }`. */
export interface ScriptedStatusFault {
  fault: 'status';
  status: number;
  /** Sent as the `Retry-After` header: seconds, or an HTTP date string. */
  retryAfter?: number | string;
  message?: string;
  /** The error body's `code` (defaults to one OpenAI uses for the status) and `param`. */
  code?: string;
  param?: string;
  delayMs?: number;
}

/** Starts a stream with the given turn, then destroys the socket after `afterChunks` SSE events. */
export interface ScriptedCutStreamFault {
  fault: 'cut-stream';
  afterChunks: number;
  /** What the stream would have said; defaults to a short text. */
  turn?: ScriptedTurn;
}

/**
 * Never finishes: with `afterChunks` the stream sends that many SSE events of `turn` first, then waits
 * (for abort-mid-stream tests). The request ends only when the client goes away or the server closes.
 */
export interface ScriptedHangFault {
  fault: 'hang';
  afterChunks?: number;
  turn?: ScriptedTurn;
}

export type ScriptedFault = ScriptedStatusFault | ScriptedCutStreamFault | ScriptedHangFault;
export type ScriptedReply = ScriptedTurn | ScriptedFault;

/** How a recorded request ended, as the server saw it. */
export type ScriptedOutcome = 'answered' | 'status' | 'cut' | 'client-closed' | 'unmatched' | 'pending';

/** A chat-completions request as the server received it, with views that make scripting easy. */
export interface ScriptedRequest {
  /** Arrival order, from 0. */
  index: number;
  body: ChatCompletionCreateParams;
  headers: IncomingHttpHeaders;
  /** `Date.now()` when the request body was read. */
  receivedAt: number;
  /** `Date.now()` when the reply was sent (its last byte, a cut, or the client going away); undefined while pending. */
  answeredAt?: number;
  outcome: ScriptedOutcome;
  /** `Date.now()` when each content delta of a streamed answer was written, in order. */
  contentWrittenAt: number[];
  stream: boolean;
  /** Text of every system and developer message, joined by blank lines. */
  systemText: string;
  lastMessage: ChatCompletionMessageParam | undefined;
  /** Text of the last message (any role). */
  lastMessageText: string;
  /** Text of every message, joined; handy for "was this ever shown to the model" checks. */
  allText: string;
  /** Provider names of the tools offered (`agent_delegate`, ...). */
  toolNames: string[];
  /** How many `tool` messages the history holds (a cheap round counter). */
  toolResultCount: number;
}

/** A script: the reply for a request, or undefined to let the next script decide. */
export type ScriptHandler = (request: ScriptedRequest) => ScriptedReply | undefined | Promise<ScriptedReply | undefined>;

/** A queued turn: a fixed reply, or one computed from the request (e.g. from the last tool result). */
export type QueuedReply = ScriptedReply | ((request: ScriptedRequest) => ScriptedReply);

export interface ScriptedModelServerOptions {
  /** Model ids `GET /v1/models` lists; defaults to `['scripted-model']`. */
  models?: string[];
  /** Delay added to every reply that sets none (the benchmark's model latency). */
  defaultDelayMs?: number;
  /** Pieces each content / reasoning / arguments string is split into when streamed (default 3). */
  piecesPerString?: number;
  /** Endpoint behaviours (refusing tools, a context window, text tool calls); changeable later through `server.modes`. */
  modes?: ScriptedEndpointModes;
}
