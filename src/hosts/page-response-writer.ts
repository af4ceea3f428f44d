import {
  formatCompletionJson,
  formatErrorBody,
  formatStreamChunk,
  formatStreamError,
  newCompletionIdentity,
  STREAM_DONE,
  type CompletionIdentity,
} from './openai-reply-format';

/** What the page hook turns into the `Response` it gives the page: a status line, body text, an end. */
export type PageResponsePart =
  | { kind: 'start'; status: number; contentType: string }
  | { kind: 'chunk'; text: string }
  | { kind: 'end' };

export interface PageResponseWriterOptions {
  /** The page asked for a stream (`stream: true`). */
  stream: boolean;
  /** The model name the page asked for, echoed back as OpenAI servers do. */
  model?: string;
  send: (part: PageResponsePart) => void;
  /** How long after the last progress line the stream repeats itself with an empty delta; see {@link PROGRESS_SETTLE_MS}. */
  settleMs?: number;
}

/**
 * Pages that redraw a stream at a fixed rate drop a redraw for an event that comes too soon after the
 * previous one and wait for the next event (SillyTavern redraws at most `streaming_fps` times a second,
 * 5 at the slowest). Progress lines come in bursts (two tasks start together), then nothing may come
 * for minutes while the agents work, so the burst's last line would stay unseen. An empty delta this
 * long after the last line makes such a page redraw what it already has; other readers ignore it.
 */
export const PROGRESS_SETTLE_MS = 250;

/** Writes one answer to the page, in the OpenAI format it asked for. Every method after the end is ignored. */
export interface PageResponseWriter {
  /** A progress line as a reasoning delta (streams only: a non-streamed request gets none). */
  progress(line: string): void;
  /** The reply; ends the answer. */
  reply(text: string): void;
  /** An error in the host's format: an HTTP error status before the stream started, an SSE error event after. */
  fail(status: number, message: string): void;
  readonly finished: boolean;
}

const SSE_TYPE = 'text/event-stream; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Creates the writer for one chat turn. A stream opens with status 200 at the first progress line, so
 * a run that fails before any progress still answers with a real HTTP error status the page shows.
 */
export function createPageResponseWriter(options: PageResponseWriterOptions): PageResponseWriter {
  const identity: CompletionIdentity = newCompletionIdentity(options.model);
  let started = false;
  let finished = false;
  let settleTimer: ReturnType<typeof setTimeout> | undefined;
  const cancelSettle = () => {
    if (settleTimer !== undefined) clearTimeout(settleTimer);
    settleTimer = undefined;
  };
  const scheduleSettle = () => {
    cancelSettle();
    settleTimer = setTimeout(() => {
      settleTimer = undefined;
      if (!finished) options.send({ kind: 'chunk', text: formatStreamChunk(identity, {}) });
    }, options.settleMs ?? PROGRESS_SETTLE_MS);
  };

  const startStream = () => {
    if (started) return;
    started = true;
    options.send({ kind: 'start', status: 200, contentType: SSE_TYPE });
    options.send({ kind: 'chunk', text: formatStreamChunk(identity, { role: 'assistant', content: '' }) });
  };
  const end = () => {
    finished = true;
    cancelSettle();
    options.send({ kind: 'end' });
  };

  return {
    get finished() {
      return finished;
    },
    progress(line) {
      if (finished || !options.stream) return;
      startStream();
      options.send({ kind: 'chunk', text: formatStreamChunk(identity, { reasoning_content: `${line}\n` }) });
      scheduleSettle();
    },
    reply(text) {
      if (finished) return;
      if (options.stream) {
        startStream();
        options.send({ kind: 'chunk', text: formatStreamChunk(identity, { content: text }) });
        options.send({ kind: 'chunk', text: formatStreamChunk(identity, {}, 'stop') + STREAM_DONE });
      } else {
        options.send({ kind: 'start', status: 200, contentType: JSON_TYPE });
        options.send({ kind: 'chunk', text: formatCompletionJson(identity, text) });
      }
      end();
    },
    fail(status, message) {
      if (finished) return;
      if (started) {
        options.send({ kind: 'chunk', text: formatStreamError(message) + STREAM_DONE });
      } else {
        options.send({ kind: 'start', status, contentType: JSON_TYPE });
        options.send({ kind: 'chunk', text: formatErrorBody(message) });
      }
      end();
    },
  };
}
