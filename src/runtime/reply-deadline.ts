/** What the root is told, once, when its reply is due (model-facing: no ids, no paths). */
export const REPLY_DUE_NOTICE =
  'Your reply is due now: write it with what you have. Tasks still working keep going in the background; their results reach you at the next turn.';

/**
 * The reply deadline of one run (`replyDeadlineMs`): when it passes, `agent.await` stops waiting,
 * the root is told once to write its reply, and children still working outlive the reply. A run
 * without a deadline waits for its helpers as before.
 */
export class ReplyDeadline {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private noticeGiven = false;
  private roundsSinceNotice = 0;

  /** `delayMs` undefined or 0: no deadline. */
  constructor(readonly delayMs: number | undefined) {}

  /** Whether this run has a deadline at all (its helpers may outlive the reply). */
  get enabled(): boolean {
    return this.delayMs !== undefined && this.delayMs > 0;
  }

  /** Aborted once the deadline passed; waits give way to it. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get passed(): boolean {
    return this.controller.signal.aborted;
  }

  /** Starts the clock (once). */
  start(): void {
    if (!this.enabled || this.timer !== undefined || this.passed) return;
    this.timer = setTimeout(() => this.controller.abort(), this.delayMs);
  }

  /** Stops the clock (the root ended first). */
  stop(): void {
    clearTimeout(this.timer);
  }

  /** The notice, the first time it is asked for after the deadline passed; undefined otherwise. */
  takeNotice(): string | undefined {
    if (!this.passed || this.noticeGiven) return undefined;
    this.noticeGiven = true;
    return REPLY_DUE_NOTICE;
  }

  /** Marks the notice as given by another way (an `agent.await` answer that said it). */
  markNoticeGiven(): void {
    if (this.passed) this.noticeGiven = true;
  }

  /**
   * Counts a root round begun; true when the root was told and already had a round to write its
   * reply but called tools again: it gets the last call without tools.
   */
  overdueAtRound(): boolean {
    if (!this.noticeGiven) return false;
    this.roundsSinceNotice += 1;
    return this.roundsSinceNotice > 1;
  }
}
