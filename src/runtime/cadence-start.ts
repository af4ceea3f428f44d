/**
 * Starts the helpers a cadence calls for (cadence.ts decides which): as tasks of the writer's
 * invocation, so the writer reads them by name with `agent_await`, they count against the run's
 * task cap, the spend cap refuses them as it refuses any delegation, and they are cancelled, resumed
 * and journaled like any task. Each is started once per run: a resumed run does not start it again.
 */
import { ModelBehaviorError } from '../errors';
import type { AgentInvocation } from '../records/invocation';
import type { AgentTaskRecord } from '../records/task';
import { capText } from '../rendering/markdown-rendering';
import type { AgentProfile } from '../settings/schema';
import { delegationRefusal } from './limits/asking';
import type { RunSession } from './run-session';
import { createTask } from './task-creation';
import { parentTaskOf } from './task-tree';

export type CadenceMoment = 'turn-start' | 'after-reply' | 'on-demand' | 'between-turns';

/** How much of the reply an after-the-reply helper is given in its briefing. */
const REPLY_CHARS = 6_000;

/**
 * The tool-call key a cadence task is recorded under: the same for the same helper and moment, so it
 * is made once. The user may run a helper between turns again once its last one ended: each time is
 * numbered (`between-turns.ts`).
 */
export function cadenceCallId(moment: CadenceMoment, agentId: string, occurrence = 1): string {
  return occurrence === 1 ? `cadence:${moment}:${agentId}` : `cadence:${moment}:${agentId}:${occurrence}`;
}

/** What an after-the-reply helper or one run between turns reads of the reply it is about. */
function replyContext(reply: string | undefined): { context?: string } {
  return reply !== undefined ? { context: `The reply the writer just gave:\n\n${capText(reply, REPLY_CHARS, '…')}` } : {};
}

function briefFor(profile: AgentProfile, moment: CadenceMoment, reply: string | undefined) {
  if (moment === 'between-turns') {
    return {
      title: profile.name,
      objective: 'The user asked you to do your part now, after the writer replied to the latest message, as your instructions say. Your result is read at the start of the next turn.',
      ...replyContext(reply),
    };
  }
  if (moment === 'on-demand') {
    return { title: profile.name, objective: 'The user asked you to do your part for this turn of the chat now, as your instructions say.' };
  }
  if (moment === 'turn-start') {
    return {
      title: profile.name,
      objective: 'Do your part for this turn of the chat, as your instructions say. The writer is about to reply to the latest message and reads your result first.',
    };
  }
  return {
    title: profile.name,
    objective: 'Do your part now that the writer has replied to the latest message, as your instructions say. Your result is read at the start of the next turn.',
    ...replyContext(reply),
  };
}

/**
 * Creates and queues one task per helper (the writer's invocation is the parent). A helper the spend
 * cap or the run's task cap refuses is not started; the journal says why (`cadence-skip`).
 */
export async function startCadenceHelpers(
  session: RunSession,
  root: AgentInvocation,
  helpers: readonly AgentProfile[],
  moment: CadenceMoment,
  reply?: string,
  occurrence = 1,
): Promise<AgentTaskRecord[]> {
  const started: AgentTaskRecord[] = [];
  for (const profile of helpers) {
    const callId = cadenceCallId(moment, profile.id, occurrence);
    const existing = [...session.tasks.values()].find((task) => task.parentInvocationId === root.id && task.toolCallId === callId);
    if (existing) continue;
    const refusal = delegationRefusal({ session, invocation: root });
    if (refusal) {
      session.journal.note('cadence-skip', { invocationId: root.id, data: { agentId: profile.id, reason: refusal.message } });
      continue;
    }
    try {
      const task = await createTask({
        session,
        caller: root,
        target: profile,
        request: { agentId: profile.id, task: briefFor(profile, moment, reply) },
        call: { callId, turn: 0 },
        startedBy: moment === 'on-demand' || moment === 'between-turns' ? { by: 'user' } : { by: 'cadence', cadence: profile.runs },
      });
      session.scheduler.enqueue(task.id, parentTaskOf(session, task)?.id);
      started.push(task);
    } catch (error) {
      if (!(error instanceof ModelBehaviorError)) throw error;
      session.journal.note('cadence-skip', { invocationId: root.id, data: { agentId: profile.id, reason: error.message } });
    }
  }
  // No tool result of the writer carries these (they come from no delegate call): they are stored
  // now, in one step, and their children start once it is done.
  const creations = session.creations.take(root.id);
  if (creations.taskIds.length > 0) {
    const write = session.saveStep({ invocations: creations.invocations, tasks: creations.taskIds.flatMap((id) => session.tasks.get(id) ?? []) });
    creations.settle(write);
    await write;
  }
  return started;
}

/**
 * The side panel's Run button: starts `agentId` in this run, as a task of the writer, once per run.
 * Refused (with what to do) for the writer itself, an unknown agent, or a run that is stopping.
 */
export async function runOnDemand(session: RunSession, agentId: string): Promise<{ ok: true } | { ok: false; code: string; message: string }> {
  const profile = session.environment.profiles.get(agentId);
  const root = await session.store.getInvocation(session.run.rootInvocationId);
  if (!profile || !root || profile.id === root.profileId) return { ok: false, code: 'run-agent-unknown', message: `There is no helper "${agentId}" to run. Pick one from the list.` };
  if (session.signal.aborted) return { ok: false, code: 'run-stopping', message: 'This run is stopping; start a new turn in the page, then run the helper.' };
  const before = session.tasks.size;
  await startCadenceHelpers(session, root, [profile], 'on-demand');
  if (session.tasks.size > before) return { ok: true };
  const already = [...session.tasks.values()].some((task) => task.toolCallId === cadenceCallId('on-demand', profile.id));
  return already
    ? { ok: false, code: 'run-agent-already', message: `${profile.name} already ran on this turn.` }
    : { ok: false, code: 'run-agent-refused', message: 'the run is at its spend cap or at its number of tasks.' };
}

/** The helpers that run after the reply, as the run's profiles say now (never the writer itself). */
export function afterReplyHelpers(session: RunSession, rootProfileId: string): AgentProfile[] {
  return [...session.environment.profiles.values()].filter((profile) => profile.id !== rootProfileId && profile.runs === 'after the reply');
}
