/**
 * The side panel's Run button between turns (issue 25): the conversation's latest run has ended with
 * a reply and no run works on the site, so the user's helper runs on that run. The run is taken up
 * again (`running`, `reopenedAt`, `repliedAt` kept or set to its end): the helper sees the chat as the
 * run saw it and the reply it gave, is a task of the writer (`startedBy: user`), and its result is a
 * "since your last reply" result of that run for the conversation's next turn, by the one rule of
 * `readableResult` (earlier-results.ts). The run ends again, completed, once its helpers did; a run
 * suspended meanwhile is resumed like any (create-agent-runtime.ts routes it back here).
 */
import type { AgentInvocation } from '../records/invocation';
import { endedWithReply, type AgentRun } from '../records/run';
import type { AgentTaskRecord } from '../records/task';
import type { AgentProfile } from '../settings/schema';
import type { RunStore } from '../store/run-store';
import type { RunOutcome } from './agent-runtime';
import { cadenceCallId, startCadenceHelpers } from './cadence-start';
import { untilHelpersEnd } from './early-reply';
import { delegationRefusal } from './limits/asking';
import { endRun, suspendedOutcome } from './root-run';
import { abortReason, isSuspended } from './run-signals';
import type { RunSession } from './run-session';
import { endUnfinishedChildren } from './task-ending';
import { CANCEL_REASONS, reasonOf } from './cancel-reasons';

export type RunAgentRefusal = { ok: false; code: string; message: string };

/** How many of the origin's newest runs are looked at to tell the conversation's latest. */
const RUNS_LOOKED_AT = 50;

const refused = (code: string, message: string): RunAgentRefusal => ({ ok: false, code, message });

const isUnfinished = (task: AgentTaskRecord): boolean => task.status === 'queued' || task.status === 'running';

/** The tasks the user ran on this run between turns for this helper, oldest first. */
function betweenTurnsTasksOf(tasks: Iterable<AgentTaskRecord>, agentId: string): AgentTaskRecord[] {
  const prefix = cadenceCallId('between-turns', agentId);
  return [...tasks].filter((task) => task.toolCallId === prefix || task.toolCallId?.startsWith(`${prefix}:`) === true);
}

/**
 * Why the user may not run `agentId` on the ended run `runId` now, from the stored records; or the
 * run and profile when they may. Limits of the run (spend cap, task cap) are asked once its session
 * is built (`reopenForHelper`).
 */
export async function betweenTurnsRefusal(
  store: RunStore,
  profiles: ReadonlyMap<string, AgentProfile>,
  runId: string,
  agentId: string,
): Promise<RunAgentRefusal | { ok: true; run: AgentRun; profile: AgentProfile }> {
  const run = await store.getRun(runId);
  if (!run) return refused('run-agent-no-run', 'This run is no longer stored; open the latest run of the chat and try again.');
  if (run.status === 'running') return refused('run-not-active', 'This run is working, but not in this background. Try again in a moment.');
  if (!endedWithReply(run) || run.reply === undefined) {
    return refused('run-agent-no-reply', 'This turn ended without a reply (it failed, was stopped or went to the page’s own model), so a helper has nothing to look at. Start a turn in the page first.');
  }
  if (!run.chat) return refused('run-agent-no-chat', 'Retinue could not tell which conversation this turn belongs to, so a helper’s result could not reach its next turn. Start a turn in the page, then run the helper while it works.');
  const conversationId = run.chat.conversationId;
  const recent = await store.listRuns({ origin: run.origin, limit: RUNS_LOOKED_AT });
  if (recent.some((other) => other.id !== run.id && other.status === 'running')) {
    return refused('run-agent-site-busy', 'A turn is being written on this site now; run the helper from that turn once it shows in the side panel.');
  }
  if (recent.some((other) => other.id !== run.id && other.chat?.conversationId === conversationId && other.createdAt > run.createdAt)) {
    return refused('run-agent-not-latest', 'This conversation has a newer turn; open its latest run to run a helper on it.');
  }
  const profile = profiles.get(agentId);
  const writer = (await store.getInvocation(run.rootInvocationId))?.profileId;
  if (!profile || profile.id === writer) return refused('run-agent-unknown', `There is no helper "${agentId}" to run. Pick one from the list.`);
  const earlier = betweenTurnsTasksOf(await store.listTasks(run.id), agentId);
  if (earlier.some(isUnfinished)) return refused('run-agent-already', `${profile.name} is already running on this turn; wait for its result.`);
  return { ok: true, run, profile };
}

/** Starts the helper on the run taken up again, once at a time (a limit of the run may refuse it). */
async function startHelper(session: RunSession, root: AgentInvocation, profile: AgentProfile): Promise<RunAgentRefusal | { ok: true }> {
  const earlier = betweenTurnsTasksOf(session.tasks.values(), profile.id);
  if (earlier.some(isUnfinished)) return refused('run-agent-already', `${profile.name} is already running on this turn; wait for its result.`);
  const occurrence = earlier.length + 1;
  const started = await startCadenceHelpers(session, root, [profile], 'between-turns', session.run.reply, occurrence);
  return started.length > 0 ? { ok: true } : refused('run-agent-refused', 'the run is at its spend cap or at its number of tasks.');
}

/**
 * Takes the ended run up again in `session` (built from its records) and starts the helper, or says
 * why not (a limit of the run refuses a new task; the run then stays as it was).
 */
export async function reopenForHelper(session: RunSession, root: AgentInvocation, profile: AgentProfile): Promise<RunAgentRefusal | { ok: true }> {
  const refusal = delegationRefusal({ session, invocation: root });
  if (refusal) return refused('run-agent-refused', refusal.message);
  const ended = session.run;
  const { endedAt, ...open } = ended;
  const now = session.now();
  // The reply went to the page when the run ended (unless it went earlier): a result from now on is about it.
  session.run = { ...open, status: 'running', repliedAt: ended.repliedAt ?? endedAt ?? now, reopenedAt: now };
  session.journal.note('run-reopen', { invocationId: root.id, data: { agentId: profile.id } });
  await session.saveStep({ run: session.run });
  return startHelper(session, root, profile);
}

/** The Run button on a run already taken up again between turns (another helper, or the same once it ended). */
export async function runAgainBetweenTurns(session: RunSession, root: AgentInvocation, agentId: string): Promise<RunAgentRefusal | { ok: true }> {
  const profile = session.environment.profiles.get(agentId);
  if (!profile || profile.id === root.profileId) return refused('run-agent-unknown', `There is no helper "${agentId}" to run. Pick one from the list.`);
  if (session.signal.aborted) return refused('run-stopping', 'This run is stopping; wait until it ended, then run the helper again.');
  return startHelper(session, root, profile);
}

/** Whether a run in the store is one taken up again between turns whose writer is done (resumed here). */
export function isReopenedRun(run: AgentRun, root: AgentInvocation): boolean {
  return run.reopenedAt !== undefined && root.status === 'completed';
}

/**
 * Drives a reopened run to its end: waits for its helpers, then records it completed with its reply
 * again (the reply went out long ago; a stop now ends the helpers, not the turn). A suspension keeps
 * it running, for `resumeRun`.
 */
export async function runBetweenTurns(session: RunSession): Promise<RunOutcome> {
  try {
    await untilHelpersEnd(session);
  } catch (error) {
    if (!session.signal.aborted) throw error;
  }
  if (isSuspended(session.signal)) return suspendedOutcome(session);
  const reason = session.signal.aborted ? reasonOf(abortReason(session.signal)) : CANCEL_REASONS.runEnded;
  await endUnfinishedChildren(session, reason);
  return endRun(session, 'completed', { ...(session.run.reply !== undefined ? { reply: session.run.reply } : {}) });
}
