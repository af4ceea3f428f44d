import {
  formatCompletionJson,
  formatErrorBody,
  formatStreamError,
  newCompletionIdentity,
  STREAM_DONE,
  type CompletionIdentity,
} from './openai-reply-format';
import { openAiStreamFormat, type PageStreamFormat } from './page-stream-format';

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
  /** The events a streamed answer is written in (OpenAI chunks unless the page reads another provider's). */
  streamFormat?: PageStreamFormat;
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
  /**
   * Reply text as the model writes it (streams only: a non-streamed request gets the whole reply at
   * the end). Text after {@link discardShownReply} starts after a blank line.
   */
  replyDelta(text: string): void;
  /** The model's reasoning as it writes it, in the reasoning channel (streams only). */
  reasoning(text: string): void;
  /**
   * Reply text already sent belonged to a tool-calling turn. A page keeps what it has read, so it
   * stays as a preamble; the next reply text is set apart from it by a blank line.
   */
  discardShownReply(): void;
  /**
   * The reply; ends the answer. With `streamed`, a stream already carries all of it as reply deltas
   * and only ends; otherwise the whole text goes out.
   */
  reply(text: string, options?: { streamed?: boolean }): void;
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
  const format = options.streamFormat ?? openAiStreamFormat;
  let started = false;
  let finished = false;
  /** Reply text sent since the last discard, and whether any reply text was ever sent. */
  let shownSinceDiscard = '';
  let breakDue = false;
  /** Whether the reasoning channel ends a line, so a progress line starts on its own. */
  let reasoningEndsLine = true;
  let settleTimer: ReturnType<typeof setTimeout> | undefined;
  const cancelSettle = () => {
    if (settleTimer !== undefined) clearTimeout(settleTimer);
    settleTimer = undefined;
  };
  const scheduleSettle = () => {
    cancelSettle();
    settleTimer = setTimeout(() => {
      settleTimer = undefined;
      if (!finished) options.send({ kind: 'chunk', text: format.idle(identity) });
    }, options.settleMs ?? PROGRESS_SETTLE_MS);
  };

  const startStream = () => {
    if (started) return;
    started = true;
    options.send({ kind: 'start', status: 200, contentType: SSE_TYPE });
    options.send({ kind: 'chunk', text: format.opening(identity) });
  };
  const sendReasoning = (text: string) => {
    options.send({ kind: 'chunk', text: format.reasoning(identity, text) });
    reasoningEndsLine = text.endsWith('\n');
    scheduleSettle();
  };
  const sendReplyText = (text: string) => {
    if (text === '') return;
    const separated = breakDue ? `\n\n${text}` : text;
    breakDue = false;
    shownSinceDiscard += text;
    cancelSettle();
    options.send({ kind: 'chunk', text: format.text(identity, separated) });
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
      sendReasoning(`${reasoningEndsLine ? '' : '\n'}${line}\n`);
    },
    replyDelta(text) {
      if (finished || !options.stream || text === '') return;
      startStream();
      sendReplyText(text);
    },
    reasoning(text) {
      if (finished || !options.stream || text === '') return;
      startStream();
      sendReasoning(text);
    },
    discardShownReply() {
      if (shownSinceDiscard === '') return;
      shownSinceDiscard = '';
      breakDue = true;
    },
    reply(text, replyOptions) {
      if (finished) return;
      if (options.stream) {
        startStream();
        if (!replyOptions?.streamed) sendReplyText(text);
        options.send({ kind: 'chunk', text: format.closing(identity) });
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
