import { heldFrom } from './text-call-guard';

/**
 * What the root's turns stream to the page while the model writes (see DESIGN.md §11, "Hosts"):
 * reply text as it becomes safe to show, reasoning for the page's reasoning channel, and word that
 * text already shown belonged to a tool-calling turn (a page cannot take it back; the next reply
 * text starts after a break).
 */
export type ReplyStreamEvent =
  | { kind: 'reply-delta'; text: string }
  | { kind: 'reasoning-delta'; text: string }
  | { kind: 'reply-discarded' };

/** One model turn's deltas, as the model client reports them. */
export interface ReplyTurnStream {
  text: (delta: string) => void;
  reasoning: (delta: string) => void;
  /** A tool-call delta came: nothing more of this turn's text is shown. */
  toolCallDelta: () => void;
  /** The call is retried from the beginning. */
  retry(): void;
  /** The turn is complete; `callsTools` says whether it called tools (natively or in text). */
  end(callsTools: boolean): void;
  /** The call failed or was stopped. */
  abandon(): void;
}

/** The root invocation's reply stream across its turns. */
export interface RootReplyStream {
  /** A gate for the next model turn; `toolsOffered` says whether that turn may call tools. */
  startTurn(toolsOffered: boolean): ReplyTurnStream;
  /** Whether the last turn's text went to the page in full (a reply from it needs no resending). */
  readonly lastTurnStreamed: boolean;
}

/**
 * The opening of a turn that may still call tools is held until it is past its first sentence (more
 * text follows a sentence end or a line break): a preamble such as "I will ask the critic first."
 * comes right before the tool call, a reply goes on writing. An opening this long is shown anyway.
 */
export const OPENING_MAX_CHARS = 400;
const SENTENCE_DONE = /[.!?…。！？:;]["'”’)\]*_]*\s+\S|[。！？]\S/u;

/** Whether the reply text so far is past its opening (see {@link OPENING_MAX_CHARS}). */
export function pastOpening(body: string): boolean {
  if (body.length > OPENING_MAX_CHARS) return true;
  const lineBreak = body.indexOf('\n');
  return (lineBreak !== -1 && body.slice(lineBreak).trim() !== '') || SENTENCE_DONE.test(body);
}

const THINK_OPEN = '<think>';
const THINK_CLOSE = '</think>';

/** Length of the longest end of `text` that is a proper beginning of `marker`. */
function partialMarkerAtEnd(text: string, marker: string): number {
  for (let length = Math.min(marker.length - 1, text.length); length > 0; length -= 1) {
    if (marker.startsWith(text.slice(text.length - length))) return length;
  }
  return 0;
}

/**
 * The gate for one turn. Reasoning goes out at once, a leading `<think>` block too. Content goes out
 * at once while no tool-call delta has come and nothing in it may start a text tool call; text that
 * may is held until the turn ends (released if the turn calls no tools, else dropped) or until the
 * guard sees it is not a call after all.
 */
function createTurnGate(send: (event: ReplyStreamEvent) => void, holdOpening: boolean, onEnd: (streamed: boolean) => void): ReplyTurnStream {
  let content = '';
  let openingHeld = holdOpening;
  /** Where the reply text starts in `content` (after a leading think block), or -1 while undecided. */
  let bodyStart = -1;
  /** How much of the think block went out as reasoning. */
  let thinkShown = 0;
  let shown = 0;
  let callsTools = false;
  let over = false;

  const releaseThink = () => {
    const trimmed = content.trimStart();
    const opening = content.length - trimmed.length;
    if (trimmed.length < THINK_OPEN.length && THINK_OPEN.startsWith(trimmed)) return;
    if (!trimmed.startsWith(THINK_OPEN)) {
      bodyStart = 0;
      return;
    }
    const thinkStart = opening + THINK_OPEN.length;
    const close = content.indexOf(THINK_CLOSE, thinkStart);
    const thinkEnd = close === -1 ? content.length - partialMarkerAtEnd(content, THINK_CLOSE) : close;
    if (thinkEnd - thinkStart > thinkShown) {
      send({ kind: 'reasoning-delta', text: content.slice(thinkStart + thinkShown, thinkEnd) });
      thinkShown = thinkEnd - thinkStart;
    }
    if (close !== -1) bodyStart = close + THINK_CLOSE.length;
  };

  const release = (everything: boolean) => {
    if (bodyStart === -1) releaseThink();
    if (bodyStart === -1 || callsTools) return;
    if (shown === 0 && bodyStart > 0) {
      // Whitespace between a think block and the reply is not part of the reply.
      const rest = content.slice(bodyStart);
      bodyStart += rest.length - rest.trimStart().length;
    }
    const body = content.slice(bodyStart);
    if (openingHeld && !everything) {
      if (!pastOpening(body)) return;
      openingHeld = false;
    }
    const limit = everything ? body.length : heldFrom(body);
    if (limit > shown) {
      send({ kind: 'reply-delta', text: body.slice(shown, limit) });
      shown = limit;
    }
  };

  const discardShown = () => {
    if (shown > 0) send({ kind: 'reply-discarded' });
    shown = 0;
  };

  return {
    text: (delta) => {
      if (over) return;
      content += delta;
      release(false);
    },
    reasoning: (delta) => {
      if (!over && delta !== '') send({ kind: 'reasoning-delta', text: delta });
    },
    toolCallDelta: () => {
      callsTools = true;
    },
    retry() {
      if (over) return;
      discardShown();
      content = '';
      bodyStart = -1;
      thinkShown = 0;
      callsTools = false;
      openingHeld = holdOpening;
    },
    end(turnCallsTools) {
      if (over) return;
      callsTools ||= turnCallsTools;
      if (callsTools) discardShown();
      else release(true);
      over = true;
      onEnd(!callsTools);
    },
    abandon() {
      over = true;
      onEnd(false);
    },
  };
}

/**
 * The root's reply stream: each model turn gets a gate; `send` carries the events to the page.
 * A turn's opening is held (see {@link OPENING_MAX_CHARS}) when it may call tools and the root is
 * not yet done with its helpers (`helpersDone`: it delegated, and every task it started has ended):
 * then its text is almost surely the reply and goes out from the first word.
 *
 * @example
 * const replyStream = createRootReplyStream((event) => port.post(event), () => false);
 * const turn = replyStream.startTurn(true); // then turn.text(...), turn.end(false)
 */
export function createRootReplyStream(send: (event: ReplyStreamEvent) => void, helpersDone: () => boolean): RootReplyStream {
  let lastTurnStreamed = false;
  return {
    startTurn(toolsOffered) {
      lastTurnStreamed = false;
      return createTurnGate(send, toolsOffered && !helpersDone(), (streamed) => {
        lastTurnStreamed = streamed;
      });
    },
    get lastTurnStreamed() {
      return lastTurnStreamed;
    },
  };
}
