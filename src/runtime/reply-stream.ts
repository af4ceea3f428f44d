import { answerText } from '../model/checked-call';
import { REASONING_BLOCKS } from '../model/text-tool-calls';
import { createReplyHold, type ReplyHold } from './text-call-guard';

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
  /**
   * The turn is complete; `callsTools` says whether it called tools (natively or in text). `answer`
   * is the turn as read: when no text delta came (an endpoint that answered a streamed request with
   * one JSON body), its text and reasoning go out now, as one delta each.
   */
  end(callsTools: boolean, answer?: { content: string; reasoning?: string }): void;
  /** The call failed or was stopped. */
  abandon(): void;
}

/** The root invocation's reply stream across its turns. */
export interface RootReplyStream {
  /**
   * A gate for the next model turn; `toolNames` are the tools offered to it (none: the wrap-up).
   * `reasoningFirst`: the model was seen closing its reasoning with a bare `</think>`, so the turn
   * is reasoning until that close.
   */
  startTurn(toolNames: readonly string[], options?: { reasoningFirst?: boolean }): ReplyTurnStream;
  /** Whether the last turn's text went to the page in full (a reply from it needs no resending). */
  readonly lastTurnStreamed: boolean;
  /**
   * The run's reply as the page ends with it, which is what the run records: the text the page has
   * (preambles shown before tool calls included, set apart by a blank line). A reply no streamed turn
   * wrote goes out after them here, so the page and the record cannot differ.
   */
  pageReply(reply: string): string;
}

/** The reply text the page holds, built as the page's writer builds it (a blank line after a discard). */
interface PageText {
  shown(text: string): void;
  discarded(): void;
}

/**
 * The opening of a turn that may still call tools is held until it is past its first sentence (more
 * text follows a sentence end or a line break): a preamble such as "I will ask the critic first."
 * comes right before the tool call, a reply goes on writing. An opening this long is shown anyway.
 */
export const OPENING_MAX_CHARS = 400;
const BARE_CLOSE = '</think>';
/** Enough of the turn's first words to tell a reasoning block's opening. */
const OPENER_LOOKAHEAD = Math.max(...REASONING_BLOCKS.map(([open]) => open.length));
const SENTENCE_DONE = /[.!?…。！？:;]["'”’)\]*_]*\s+\S|[。！？]\S/u;

/** Whether the reply text so far is past its opening (see {@link OPENING_MAX_CHARS}). */
export function pastOpening(body: string): boolean {
  if (body.length > OPENING_MAX_CHARS) return true;
  const lineBreak = body.indexOf('\n');
  return (lineBreak !== -1 && body.slice(lineBreak).trim() !== '') || SENTENCE_DONE.test(body);
}

/** Length of the longest end of `text` that is a proper beginning of `marker`. */
function partialMarkerAtEnd(text: string, marker: string): number {
  for (let length = Math.min(marker.length - 1, text.length); length > 0; length -= 1) {
    if (marker.startsWith(text.slice(text.length - length))) return length;
  }
  return 0;
}

/**
 * The gate for one turn. Reasoning goes out at once, a leading reasoning block (`<think>`, Command
 * R's thinking, harmony analysis) too. Content goes out at once while no tool-call delta has come
 * and nothing in it may start a text tool call or framing the final reading drops; text that may
 * is held until the turn ends. At the end the turn's text is read as the final reading reads it
 * (`answerText`, which `readAnswer` uses too), and what of that reading the page does not have yet goes out.
 */
function createTurnGate(
  send: (event: ReplyStreamEvent) => void,
  toolNames: readonly string[],
  options: { holdOpening: boolean; reasoningFirst: boolean },
  onEnd: (streamed: boolean) => void,
  page: PageText,
): ReplyTurnStream {
  const { holdOpening, reasoningFirst } = options;
  const toolsOffered = toolNames.length > 0;
  let content = '';
  let openingHeld = holdOpening;
  /** Where the reply text starts in `content` (after a leading reasoning block), or -1 while undecided. */
  let bodyStart = -1;
  /** How much of the reasoning block went out as reasoning. */
  let thinkShown = 0;
  let shown = 0;
  let callsTools = false;
  let over = false;
  let hold: ReplyHold = createReplyHold(toolsOffered, { toolNames });
  /** Where the search for a bare `</think>` resumes. */
  let bareCloseSearch = 0;
  /** Whitespace skipped before a bare-closed reasoning's first word. */
  let skippedSpace = 0;
  /** Whether any text or reasoning delta came (a JSON answer to a streamed request has none). */
  let deltaSeen = false;

  /**
   * A model known to close its reasoning with a bare `</think>` (its chat template opened the block):
   * the turn is reasoning until that close. A turn that ends without one was all reply after all.
   */
  const releaseBareThink = (everything: boolean) => {
    const close = content.indexOf(BARE_CLOSE, bareCloseSearch);
    bareCloseSearch = Math.max(0, content.length - BARE_CLOSE.length + 1);
    const end = close === -1 ? content.length - partialMarkerAtEnd(content, BARE_CLOSE) : close;
    // Whitespace before the reasoning is not part of it.
    while (thinkShown === 0 && skippedSpace < end && /\s/.test(content[skippedSpace] as string)) skippedSpace += 1;
    if (thinkShown === 0) thinkShown = skippedSpace;
    if (end > thinkShown) {
      send({ kind: 'reasoning-delta', text: content.slice(thinkShown, end) });
      thinkShown = end;
    }
    if (close !== -1) bodyStart = close + BARE_CLOSE.length;
    else if (everything) bodyStart = 0;
  };

  /**
   * How the turn opens, decided once its first words are in: a reasoning block (and where its body
   * starts), bare-closed reasoning, or reply text. Deciding once keeps the gate linear in the turn.
   */
  let opening: { kind: 'block'; close: string; thinkStart: number } | { kind: 'bare' } | undefined;

  const decideOpening = (everything: boolean) => {
    let first = 0;
    while (first < content.length && /\s/.test(content[first] as string)) first += 1;
    const start = content.slice(first, first + OPENER_LOOKAHEAD);
    if (!everything && (start === '' || REASONING_BLOCKS.some(([open]) => start.length < open.length && open.startsWith(start)))) return;
    const block = REASONING_BLOCKS.find(([open]) => start.startsWith(open));
    if (block) opening = { kind: 'block', close: block[1], thinkStart: first + block[0].length };
    else if (reasoningFirst) opening = { kind: 'bare' };
    else bodyStart = 0;
  };

  const releaseThink = (everything: boolean) => {
    if (!opening) decideOpening(everything);
    if (!opening) return;
    if (opening.kind === 'bare') {
      releaseBareThink(everything);
      return;
    }
    const { close, thinkStart } = opening;
    const closeAt = content.indexOf(close, Math.max(thinkStart, thinkStart + thinkShown - close.length));
    const thinkEnd = closeAt === -1 ? content.length - partialMarkerAtEnd(content, close) : closeAt;
    if (thinkEnd - thinkStart > thinkShown) {
      send({ kind: 'reasoning-delta', text: content.slice(thinkStart + thinkShown, thinkEnd) });
      thinkShown = thinkEnd - thinkStart;
    }
    if (closeAt !== -1) bodyStart = closeAt + close.length;
  };

  const sendReply = (text: string) => {
    if (text === '') return;
    send({ kind: 'reply-delta', text });
    page.shown(text);
  };

  const release = (everything: boolean) => {
    if (bodyStart === -1) releaseThink(everything);
    if (bodyStart === -1 || callsTools) return;
    if (shown === 0 && bodyStart === 0 && !reasoningFirst) {
      // A bare `</think>` before any reply text went out: what came before it is reasoning (QwQ, R1 distills).
      const close = content.indexOf(BARE_CLOSE, bareCloseSearch);
      bareCloseSearch = Math.max(0, content.length - BARE_CLOSE.length);
      if (close !== -1 && !content.slice(0, close).includes('<think>')) {
        const reasoning = content.slice(0, close).trim();
        if (reasoning !== '') send({ kind: 'reasoning-delta', text: reasoning });
        bodyStart = close + BARE_CLOSE.length;
        hold = createReplyHold(toolsOffered, { toolNames });
      }
    }
    if (shown === 0) {
      // Whitespace before the reply (after a reasoning block, or at the start) is not part of it.
      const rest = content.slice(bodyStart);
      const skip = rest.length - rest.trimStart().length;
      if (skip > 0) {
        bodyStart += skip;
        hold = createReplyHold(toolsOffered, { toolNames });
      }
    }
    const body = content.slice(bodyStart);
    if (openingHeld && !everything) {
      if (!pastOpening(body)) return;
      openingHeld = false;
    }
    let limit = hold.heldFrom(body);
    // Trailing whitespace waits for what follows it (the final reading trims it off the end), a little of it.
    for (let back = 0; back < 64 && limit > shown && /\s/.test(body[limit - 1] as string); back += 1) limit -= 1;
    if (limit > shown) {
      sendReply(body.slice(shown, limit));
      shown = limit;
    }
    if (everything) finish(body);
  };

  /** The final reading of the turn: what of it the page lacks goes out; text it cannot take back stays, set apart. */
  const finish = (body: string) => {
    const visible = answerText(content, toolNames).trim();
    const sent = body.slice(0, shown);
    if (visible.startsWith(sent)) sendReply(visible.slice(sent.length));
    else {
      send({ kind: 'reply-discarded' });
      page.discarded();
      sendReply(visible);
    }
  };

  const discardShown = () => {
    if (shown > 0) {
      send({ kind: 'reply-discarded' });
      page.discarded();
    }
    shown = 0;
  };

  return {
    text: (delta) => {
      if (over) return;
      deltaSeen = true;
      content += delta;
      release(false);
    },
    reasoning: (delta) => {
      deltaSeen = true;
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
      hold = createReplyHold(toolsOffered, { toolNames });
      bareCloseSearch = 0;
      skippedSpace = 0;
      opening = undefined;
      deltaSeen = false;
    },
    end(turnCallsTools, answer) {
      if (over) return;
      if (answer && !deltaSeen) {
        if (answer.reasoning) send({ kind: 'reasoning-delta', text: answer.reasoning });
        content = answer.content;
      }
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
 * const turn = replyStream.startTurn(['agent_delegate']); // then turn.text(...), turn.end(false)
 */
export function createRootReplyStream(send: (event: ReplyStreamEvent) => void, helpersDone: () => boolean): RootReplyStream {
  let lastTurnStreamed = false;
  let pageText = '';
  let shownSinceDiscard = false;
  let breakDue = false;
  const page: PageText = {
    shown(text) {
      pageText += breakDue ? `\n\n${text}` : text;
      breakDue = false;
      shownSinceDiscard = true;
    },
    discarded() {
      if (shownSinceDiscard) breakDue = true;
      shownSinceDiscard = false;
    },
  };
  return {
    startTurn(toolNames, options = {}) {
      lastTurnStreamed = false;
      const gateOptions = { holdOpening: toolNames.length > 0 && !helpersDone(), reasoningFirst: options.reasoningFirst === true };
      return createTurnGate(send, toolNames, gateOptions, (streamed) => {
        lastTurnStreamed = streamed;
      }, page);
    },
    get lastTurnStreamed() {
      return lastTurnStreamed;
    },
    pageReply(reply) {
      if (pageText === '') return reply;
      if (!lastTurnStreamed) {
        send({ kind: 'reply-delta', text: reply });
        page.shown(reply);
        lastTurnStreamed = true;
      }
      return pageText;
    },
  };
}
