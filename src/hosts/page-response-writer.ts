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
}

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

  const startStream = () => {
    if (started) return;
    started = true;
    options.send({ kind: 'start', status: 200, contentType: SSE_TYPE });
    options.send({ kind: 'chunk', text: formatStreamChunk(identity, { role: 'assistant', content: '' }) });
  };
  const end = () => {
    finished = true;
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
