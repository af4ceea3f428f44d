import { HostContractError, RetinueError } from '../errors';
import type { AgentInvocation } from '../records/invocation';
import type { AgentRun, RunFallback, RunStatus } from '../records/run';
import type { RunOutcome } from './agent-runtime';
import { endUnfinishedChildren } from './task-ending';
import { replyWhileHelpersWork } from './early-reply';
import { recordMemoryVersion } from './agent-memory';
import { afterReplyHelpers, startCadenceHelpers } from './cadence-start';
import { fallbackForError } from './fail-open';
import { createDelegationPort } from './delegation-service';
import type { InvocationDriver } from './invocation-driver';
import { runInvocationLoop } from './invocation-loop';
import { hostFeaturesOf, rootPolicy } from './invocation-policy';
import { abortReason, isSuspended } from './run-signals';
import type { RunSession } from './run-session';
import { samplingFor } from './turn-preparation';
import { createRootWorkspaceView } from '../workspace/root-view';
import { CANCEL_REASONS, cancelledFor, reasonOf } from './cancel-reasons';

function asRetinueError(error: unknown): RetinueError {
  if (error instanceof RetinueError) return error;
  return new HostContractError('unexpected-error', error instanceof Error ? error.message : String(error), { cause: error });
}

/** The root's record as it ends (not stored yet); {@link noteRootEnd} notes its event. */
function endedRoot(session: RunSession, invocation: AgentInvocation, status: AgentInvocation['status'], error?: RetinueError): AgentInvocation {
  return { ...invocation, status, endedAt: session.now(), ...(error ? { error: error.toJSON() } : {}) };
}

function noteRootEnd(session: RunSession, ended: AgentInvocation): void {
  session.journal.note('invocation-end', { invocationId: ended.id, data: { status: ended.status, usage: ended.usage, ...(ended.error ? { error: ended.error } : {}) } });
}

async function endRootInvocation(
  session: RunSession,
  invocation: AgentInvocation,
  status: AgentInvocation['status'],
  error?: RetinueError,
): Promise<AgentInvocation> {
  const ended = endedRoot(session, invocation, status, error);
  noteRootEnd(session, ended);
  await session.saveStep({ invocations: [ended] });
  return ended;
}

/**
 * Records the run's end (its record and its last event); a completed run records its memory version.
 * `rootEnd` is the root's ended record when nothing needed it stored before the run's end (a run
 * without helpers): it goes in the same step, its event before the run's.
 */
export async function endRun(
  session: RunSession,
  wanted: RunStatus,
  result: { reply?: string; error?: RetinueError; fallback?: RunFallback; rootEnd?: AgentInvocation },
): Promise<RunOutcome> {
  // Every step's journal event is stored before the run's end; a journal that failed fails the run.
  const journalFailure = await session.journal.flush().then(
    () => undefined,
    (error: unknown) => asRetinueError(error),
  );
  const status: RunStatus = journalFailure && wanted === 'completed' ? 'failed' : wanted;
  const error = status === 'completed' ? undefined : (result.error ?? journalFailure);
  const run: AgentRun = {
    ...session.run,
    status,
    endedAt: session.now(),
    ...(status === 'completed' && result.reply !== undefined ? { reply: result.reply } : {}),
    ...(error ? { error: error.toJSON() } : {}),
    ...(status === 'failed' && result.fallback ? { fallback: result.fallback } : {}),
  };
  session.run = run;
  if (status === 'completed' && result.reply) await recordMemoryVersion(session.store, run, session.snapshot, result.reply, session.now());
  // The run's record and its last event in one step (with a journal that failed, the records alone).
  const invocations = result.rootEnd ? [result.rootEnd] : [];
  if (!journalFailure && result.rootEnd) noteRootEnd(session, result.rootEnd);
  if (!journalFailure) session.journal.note('run-end', { data: { status, usage: run.usage, ...(error ? { error: error.toJSON() } : {}), ...(run.fallback ? { fallback: run.fallback } : {}) } });
  if (journalFailure) await (result.rootEnd ? session.store.saveStep({ run, invocations }) : session.store.putRun(run));
  else if (status === 'completed') {
    // The reply goes to the page while its end is written: the reply is the answer already stored,
    // and a run whose end could not be written is resumed to that same reply (interrupted-runs.ts).
    // The write is under way, so anything read from the store after this waits for it.
    session.saveStep({ run, invocations }).catch((failure: unknown) => session.failFast(asRetinueError(failure)));
  } else await session.saveStep({ run, invocations });
  return { run, reply: status === 'completed' ? (result.reply ?? '') : '' };
}

/** The outcome of a run this runtime stopped without recording an end (it stays resumable). */
/**
 * A run the runtime stopped (its worker is going): once its helpers have let go, what it noted is
 * stored before the runtime lets go of it, so nothing of it is written after a later start-up has
 * resumed the run or marked it interrupted. A failed write changes nothing: the run stays running.
 */
export async function suspendedOutcome(session: RunSession): Promise<RunOutcome> {
  await session.scheduler.settled();
  await session.journal.flush().catch(() => undefined);
  return { run: session.run, reply: '', suspended: true };
}

/**
 * Runs (or continues) the root invocation to the run's end: its reply on a plain answer, a
 * committed file, `workspace.finish` or the wrap-up at its cap; then unfinished children are
 * cancelled and the run is recorded. Model failures fail the run closed, cancellation cancels it.
 */
export async function runRoot(session: RunSession, rootInvocation: AgentInvocation): Promise<RunOutcome> {
  let invocation = rootInvocation;
  /** The root's end, made but not stored yet: the run's end stores it (see {@link endRun}). */
  let rootEndUnstored: AgentInvocation | undefined;
  try {
    const profile = session.profile(invocation.profileId);
    const policy = rootPolicy(profile, hostFeaturesOf(session.run.adapter));
    // A fresh root is stored running with its run; one made before that (an older record) is saved so now.
    if (invocation.status !== 'running') {
      invocation = { ...invocation, status: 'running' };
      await session.saveStep({ invocations: [invocation] });
    }
    session.journal.note('invocation-start', { invocationId: invocation.id, data: { profileId: profile.id, kind: 'root' } });
    const driver: InvocationDriver = {
      session,
      invocation,
      policy,
      model: session.resolveModel(profile),
      sampling: samplingFor(session.snapshot, profile),
      signal: session.signal,
      workspace: createRootWorkspaceView(session.workspace, { agentId: profile.id }),
      delegation: policy.tools.some((tool) => tool.startsWith('agent.')) ? createDelegationPort(session, invocation, profile) : undefined,
      replyStream: session.createReplyStream(invocation.id),
    };
    session.replyDue.start(session.now());
    try {
      const ending = await runInvocationLoop(driver);
      session.replyDue.stop();
      invocation = driver.invocation;
      // The page's text is the recorded reply (preambles it was shown included): see reply-stream.ts.
      const written = ending.kind === 'reply' ? ending.text : '';
      const reply = driver.replyStream && written !== '' ? driver.replyStream.pageReply(written) : written;
      const afterHelpers = afterReplyHelpers(session, profile.id);
      // A run that started no helper and starts none after its reply stores its root's end with
      // its own, in one step: the page's reply waits for one write instead of two.
      if (session.tasks.size === 0 && afterHelpers.length === 0) invocation = rootEndUnstored = endedRoot(session, invocation, 'completed');
      else invocation = await endRootInvocation(session, invocation, 'completed');
      // Without a reply deadline the root's own unfinished tasks end with it, as ever; helpers that run after the reply start then.
      if (afterHelpers.length > 0 && !session.replyDue.enabled) await endUnfinishedChildren(session, CANCEL_REASONS.runEnded);
      const rootInvocation = invocation;
      const afterReply = { count: afterHelpers.length, start: () => startCadenceHelpers(session, rootInvocation, afterHelpers, 'after-reply', reply) };
      const replied = await replyWhileHelpersWork(session, reply, driver.replyStream?.lastTurnStreamed === true, afterReply);
      await endUnfinishedChildren(session, CANCEL_REASONS.runEnded);
      // A run that already replied stays completed when stopped later; only a suspension keeps it open.
      if (session.signal.aborted && (!replied || isSuspended(session.signal))) throw abortReason(session.signal);
      const outcome = await endRun(session, 'completed', { reply, ...(rootEndUnstored ? { rootEnd: rootEndUnstored } : {}) });
      return driver.replyStream?.lastTurnStreamed && outcome.run.status === 'completed' ? { ...outcome, replyStreamed: true } : outcome;
    } catch (error) {
      session.replyDue.stop();
      if (invocation.status === 'running') invocation = driver.invocation;
      throw error;
    }
  } catch (error) {
    if (isSuspended(session.signal)) return suspendedOutcome(session);
    const reason = session.signal.aborted ? abortReason(session.signal) : asRetinueError(error);
    const status = reason.fault === 'cancelled' ? 'cancelled' : 'failed';
    const childrenReason = status === 'cancelled' ? reasonOf(reason) : CANCEL_REASONS.runFailed;
    if (!session.signal.aborted) session.controller.abort(cancelledFor(childrenReason));
    try {
      if (invocation.status === 'running' || invocation.status === 'created') await endRootInvocation(session, invocation, status, reason);
      await endUnfinishedChildren(session, childrenReason);
    } catch {
      // The run's end is recorded below; a store that fails here fails there too, and says so.
    }
    // A failure of Retinue's or of the endpoint's abilities sends the page's own request instead (§13).
    // A root that ended with its reply but was not stored yet keeps that end (as when stored at once).
    return endRun(session, status, { error: reason, ...(status === 'failed' ? { fallback: fallbackForError(reason) } : {}), ...(rootEndUnstored ? { rootEnd: rootEndUnstored } : {}) });
  }
}
