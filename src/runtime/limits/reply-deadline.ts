import { notedAtRound, type Limit } from './limit';

/** What the root is told, once, when its reply is due (model-facing: no ids, no paths). */
export const REPLY_DUE_NOTICE =
  'Your reply is due now: write it with what you have. Tasks still working keep going in the background; their results reach you at the next turn.';

/**
 * The clock of a run's reply deadline, made from the run record's `replyDueAt` (set once when the
 * run starts, from `replyDeadlineMs`): a resumed run has the same deadline as the one that stopped,
 * and one already past is past at once. A run without one waits for its helpers as before.
 */
export class ReplyDueClock {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(readonly dueAt: number | undefined) {}

  /** Whether this run has a deadline at all (its helpers may outlive the reply). */
  get enabled(): boolean {
    return this.dueAt !== undefined;
  }

  /** Aborted once the deadline passed; waits give way to it. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get passed(): boolean {
    return this.controller.signal.aborted;
  }

  /** Starts the clock (once), against `now`. */
  start(now: number): void {
    if (this.dueAt === undefined || this.timer !== undefined || this.passed) return;
    const delayMs = this.dueAt - now;
    if (delayMs <= 0) this.controller.abort();
    else this.timer = setTimeout(() => this.controller.abort(), delayMs);
  }

  /** Stops the clock (the root ended first). */
  stop(): void {
    clearTimeout(this.timer);
  }
}

/**
 * The reply deadline (`replyDeadlineMs`): when it passes, the root's `agent.await` stops waiting, the
 * root is told once (in its next tool result) to write its reply, and children still working outlive
 * the reply. Told, the root has one round to write it; calling tools again ends in its last call.
 */
export const replyDeadline: Limit = {
  id: 'reply-deadline',
  stopsLoop({ invocation }) {
    const told = notedAtRound(invocation, 'reply-deadline');
    return invocation.kind === 'root' && told !== undefined && invocation.usage.rounds > told;
  },
  toolResultNote({ session, invocation }) {
    if (invocation.kind !== 'root' || !session.replyDue.passed || notedAtRound(invocation, 'reply-deadline') !== undefined) return undefined;
    return { text: REPLY_DUE_NOTICE };
  },
  endsWaits({ session, invocation }) {
    if (invocation.kind !== 'root' || !session.replyDue.enabled) return undefined;
    return { signal: session.replyDue.signal, lapse: 'reply-deadline' };
  },
};
