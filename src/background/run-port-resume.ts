import type { PageRelayedFetch } from '../hosts/page-relayed-fetch';
import type { BridgeToBackgroundMessage } from '../messaging/run-port-messages';
import type { RunOutcome } from '../runtime/agent-runtime';
import type { Settings } from '../settings/schema';
import { pageAnswerForCrash, pageAnswerForInterruptedRun } from './page-error-text';
import { lendingOf } from './run-model-resolver';
import { loreFor, pageUpdates, resolverFor, storedRunAdapter, storedSnapshot, type RunPortSession } from './run-port-session';

type RunBetweenMessage = Extract<BridgeToBackgroundMessage, { type: 'run-between' }>;

/** A run the service worker stopped in, picked up again by the page it came from (`run-resume`). */
export async function resumeChatTurn(session: RunPortSession, runId: string, settings: Settings, pageFetch: PageRelayedFetch): Promise<RunOutcome | undefined> {
  const { context } = session.dependencies;
  const store = await context.getStore();
  const run = await store.getRun(runId);
  // A page may only pick up its own origin's runs (and never learns run ids in the first place).
  if (!run || run.origin !== session.origin) {
    session.answerFailure(pageAnswerForCrash(new Error('There is no run of this page to continue.')));
    return undefined;
  }
  // The start-up sweep may have given this run up already (the page came back too late).
  if (!context.runClaims.claimForResume(runId)) {
    session.answerFailure(pageAnswerForInterruptedRun());
    return undefined;
  }
  try {
    const snapshot = await storedSnapshot(session, runId);
    session.post({ type: 'run-accepted', runId });
    const lending = await lendingOf(session.origin);
    const runtime = await context.getRuntime();
    // The turn's time limit runs from the run's start, not from the reconnect (a reply already sent
    // has none). Armed only once the run is underway, so a limit already past ends the resumed run
    // itself (recorded on it) rather than a run not yet resumed.
    if (run.repliedAt === undefined) session.armRootTimer(run.createdAt + session.rootTimeoutMs - Date.now());
    else session.clearRootTimer();
    session.markUnderway();
    return await runtime.resumeRun(runId, {
      resolveModel: resolverFor(session, { settings, adapter: storedRunAdapter(run), snapshot, pageFetch, lending }),
      signal: session.signal,
      ...pageUpdates(session),
      onEarlyReply: (early) => session.replyEarly(early),
      ...loreFor(session, run.adapter),
    });
  } finally {
    context.runClaims.releaseResume(runId);
  }
}

/** The Run button between turns: the helper runs on the ended run, its model calls through this page; nothing goes into the chat. */
export async function runBetweenTurns(session: RunPortSession, message: RunBetweenMessage, settings: Settings, pageFetch: PageRelayedFetch): Promise<RunOutcome | undefined> {
  const { context } = session.dependencies;
  // The turn's reply went out long ago: its time limit does not apply; the helper has its own.
  session.clearRootTimer();
  const store = await context.getStore();
  const run = await store.getRun(message.runId);
  const settle = (outcome: { ok: true } | { ok: false; code: string; message: string }) => context.betweenTurns.settle(message.runId, message.agentId, outcome);
  if (!run || run.origin !== session.origin) {
    settle({ ok: false, code: 'run-agent-no-run', message: 'This run is no longer stored; open the latest run of the chat and try again.' });
    session.post({ type: 'run-closed' });
    return undefined;
  }
  const runtime = await context.getRuntime();
  session.markUnderway();
  const snapshot = await storedSnapshot(session, run.id);
  const started = await runtime.runAgentBetweenTurns(run.id, {
    agentId: message.agentId,
    resolveModel: resolverFor(session, { settings, adapter: storedRunAdapter(run), snapshot, pageFetch, lending: await lendingOf(session.origin) }),
    signal: session.signal,
    ...loreFor(session, run.adapter),
  });
  settle(started.ok ? { ok: true } : started);
  if (started.ok && started.done) return started.done;
  session.post({ type: 'run-closed' });
  return undefined;
}
