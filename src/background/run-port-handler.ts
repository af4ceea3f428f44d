import { HostContractError, RetinueError } from '../errors';
import { createPageRelayedFetch, type PageRelayedFetch } from '../hosts/page-relayed-fetch';
import { SNAPSHOT_LIMITS } from '../hosts/prompt-snapshot';
import { bridgeToBackgroundMessageSchema, type BackgroundToBridgeMessage, type BridgeToBackgroundMessage } from '../messaging/run-port-messages';
import type { RunFallback } from '../records/run';
import type { EarlyReply } from '../runtime/agent-runtime';
import { CANCEL_REASONS, cancelledFor } from '../runtime/cancel-reasons';
import { fallbackForError, PageModelFallbackError } from '../runtime/fail-open';
import { isSiteSwitchedOn } from '../settings/site-settings';
import { whileHeld } from './background-keep-alive';
import { pageAnswerForCrash, pageAnswerForRun } from './page-error-text';
import { resumeChatTurn, runBetweenTurns } from './run-port-resume';
import type { RunPortDependencies, RunPortSession, RunServicePort } from './run-port-session';
import { startChatTurn } from './run-port-start';

export type { RunPortDependencies, RunServicePort } from './run-port-session';

/** The longest a chat turn's run may take; then the page gets its own generation and the run says why. */
export const ROOT_TIMEOUT_MS = 10 * 60_000;

type RunBeginning = Extract<BridgeToBackgroundMessage, { type: 'run-start' | 'run-resume' | 'run-between' }>;

/**
 * The origin a run port really comes from: the sender's frame, as the browser reports it. An origin
 * the page writes in a message is never trusted.
 */
export function senderOrigin(sender: RunServicePort['sender']): string | undefined {
  if (!sender?.tab) return undefined;
  if (sender.origin && sender.origin !== 'null') return sender.origin;
  try {
    return sender.url ? new URL(sender.url).origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Serves one run port: `run-start` (or `run-resume` after the service worker restarted, or
 * `run-between` for a helper run between turns) runs the turn; progress, the reply or an error in
 * words go back; `run-abort` or the port's loss cancels the run and its children; host calls relay
 * through the page. The ways of running a turn are their own modules (run-port-start.ts,
 * run-port-resume.ts); this one holds the port's state and the turn's time limit.
 */
export function serveRunPort(port: RunServicePort, dependencies: RunPortDependencies): void {
  const origin = senderOrigin(port.sender);
  if (!origin) {
    port.disconnect();
    return;
  }
  const abort = new AbortController();
  let relay: PageRelayedFetch | undefined;
  let begun = false;
  let runUnderway = false;
  /** The page has its reply while helpers still work: losing the page no longer stops the run. */
  let repliedEarly = false;
  let closed = false;
  const post = (message: BackgroundToBridgeMessage) => {
    if (closed) return;
    try {
      port.postMessage(message);
    } catch {
      closed = true;
    }
  };

  let rootTimer: ReturnType<typeof setTimeout> | undefined;
  const rootTimeoutMs = dependencies.rootTimeoutMs ?? ROOT_TIMEOUT_MS;
  const session: RunPortSession = {
    origin,
    port,
    dependencies,
    signal: abort.signal,
    post,
    answerFailure: ({ status, message }) => post({ type: 'run-failed', status, message }),
    passThroughOverSnapshotLimit,
    replyEarly,
    markUnderway: () => {
      runUnderway = true;
    },
    rootTimeoutMs,
    /** Over the time limit the turn is not lost: the page gets its own generation and the run says why. */
    armRootTimer: (delayMs) => {
      clearTimeout(rootTimer);
      rootTimer = setTimeout(() => {
        const minutes = Math.max(1, Math.round(rootTimeoutMs / 60_000));
        fallBackToPageModel({ code: 'limit-root-timeout', reason: `The turn ran past Retinue's limit of ${minutes} minutes for one reply.` });
      }, Math.max(0, delayMs));
    },
    clearRootTimer: () => clearTimeout(rootTimer),
  };
  port.onDisconnect.addListener(() => {
    clearTimeout(rootTimer);
    closed = true;
    relay?.failAll('The page went away.');
    if (!repliedEarly) abort.abort(cancelledFor(CANCEL_REASONS.pageGone));
  });
  port.onMessage.addListener((raw) => {
    const parsed = bridgeToBackgroundMessageSchema().safeParse(raw);
    if (!parsed.success) return;
    const message = parsed.data;
    if (message.type === 'run-start' || message.type === 'run-resume' || message.type === 'run-between') {
      if (begun) return;
      begun = true;
      relay = createPageRelayedFetch(post);
      session.armRootTimer(rootTimeoutMs);
      // The browser would unload an idle background mid-run (Firefox even with the port open): hold it.
      const pageFetch = relay;
      void whileHeld(dependencies.context.keepAlive, () => begin(message, pageFetch))
        .catch((error: unknown) => {
          runUnderway = false;
          const fallback = fallbackForError(error instanceof RetinueError ? error : new HostContractError('unexpected-error', String(error)));
          if (fallback) fallBackToPageModel(fallback);
          else session.answerFailure(pageAnswerForCrash(error));
        })
        .finally(() => clearTimeout(rootTimer));
    } else if (message.type === 'run-over-limit') {
      if (begun) return;
      begun = true;
      passThroughOverSnapshotLimit();
    } else if (message.type === 'run-abort') {
      if (repliedEarly) return;
      abort.abort(cancelledFor(CANCEL_REASONS.pageStopped));
    } else if (message.type !== 'keep-alive') {
      relay?.deliver(message);
    }
  });

  /** A turn over the snapshot size passes to the page's own server; the side panel says which limit. */
  function passThroughOverSnapshotLimit(): void {
    dependencies.recordNotice(origin as string, {
      code: 'limit-snapshot-size',
      messageKey: 'page_notice_limit_snapshot_size',
      substitutions: [String(SNAPSHOT_LIMITS.maxChars)],
    });
    post({ type: 'pass-through' });
  }

  /**
   * Fail open (DESIGN.md §13): the page's original request goes, unmodified, to the page's own server
   * and the side panel says why. A run under way ends `failed` with `fallback` set (its end then sends
   * the page on); without one, a page notice keeps the reason.
   *
   * @example
   * fallBackToPageModel({ code: 'limit-root-timeout', reason: 'The turn ran past the 10-minute limit.' });
   */
  function fallBackToPageModel(fallback: RunFallback): void {
    if (runUnderway && !abort.signal.aborted) {
      abort.abort(new PageModelFallbackError(fallback));
      return;
    }
    dependencies.recordNotice(origin as string, { code: `fallback-${fallback.code}`, messageKey: 'page_notice_fallback', substitutions: [fallback.reason] });
    post({ type: 'pass-through' });
  }

  /** The reply went out while helpers still work (a reply deadline), for a run started or resumed here. */
  function replyEarly(early: EarlyReply): void {
    repliedEarly = true;
    // The turn has its reply: the time limit for one reply no longer applies to the helpers.
    clearTimeout(rootTimer);
    post({ type: 'run-reply', reply: early.reply, helpersWorking: early.stillWorking, ...(early.replyStreamed ? { streamed: true } : {}) });
  }

  async function begin(message: RunBeginning, pageFetch: PageRelayedFetch): Promise<void> {
    const settings = await dependencies.context.getSettings();
    if (!isSiteSwitchedOn(settings, origin as string)) {
      post({ type: 'pass-through' });
      return;
    }
    const outcome =
      message.type === 'run-start'
        ? await startChatTurn(session, message, settings, pageFetch)
        : message.type === 'run-between'
          ? await runBetweenTurns(session, message, settings, pageFetch)
          : await resumeChatTurn(session, message.runId, settings, pageFetch);
    runUnderway = false;
    if (!outcome || outcome.suspended) return;
    if (repliedEarly) post({ type: 'run-closed' });
    else if (outcome.run.status === 'completed') post({ type: 'run-reply', reply: outcome.reply, ...(outcome.replyStreamed ? { streamed: true } : {}) });
    else if (outcome.run.fallback) post({ type: 'pass-through' });
    else session.answerFailure(pageAnswerForRun(outcome.run));
    // The page has its answer: measure the run now, not at the start of the next turn.
    dependencies.storageQuota?.remember(outcome.run).catch((error: unknown) => console.error("Retinue: a run's stored size could not be measured.", error));
  }
}
