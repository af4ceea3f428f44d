/**
 * The run's spend cap (`budget.maxRunTokens` of the root's profile, else `defaults.maxRunTokens`,
 * fixed on the run record as `tokenCap` when it starts): once the run's model calls have used that
 * many tokens, no new delegation starts (queued tasks are cancelled, `agent.delegate` refuses),
 * running tasks get their wrap-up call at their next round, and the root, once its tasks have ended,
 * is told and writes the reply. Every invocation makes at most one more call after the cap, so the
 * run stops near it, not exactly at it.
 */
import { ModelBehaviorError } from '../../errors';
import type { AgentProfile, Connection, SettingsDefaults } from '../../settings/schema';
import type { RunSession } from '../run-session';
import { cancelTask } from '../task-ending';
import type { Limit } from './limit';
import { CANCEL_REASONS } from '../cancel-reasons';

/**
 * The spend cap of a run whose agents may use a connection that carries an API key, when neither the
 * root's profile nor `defaults.maxRunTokens` sets one: about three rounds of the writer on a 64k-token
 * chat with a few helpers beside it, and more than the keyed daily budget of one site
 * (`KEYED_DAILY_TOKEN_BUDGET`), so an unattended page cannot run one turn on paid calls without end.
 */
export const DEFAULT_KEYED_RUN_TOKENS = 300_000;

/**
 * The cap for a run whose root has this profile; undefined means no cap. `usesKeyedConnection`: some
 * agent of the run may call a connection that carries an API key, which gives the run
 * {@link DEFAULT_KEYED_RUN_TOKENS} when nothing else sets a cap.
 */
export function runTokenCapOf(rootProfile: AgentProfile, defaults: SettingsDefaults, usesKeyedConnection = false): number | undefined {
  return rootProfile.budget.maxRunTokens ?? defaults.maxRunTokens ?? (usesKeyedConnection ? DEFAULT_KEYED_RUN_TOKENS : undefined);
}

/** The ids of the connections that carry an API key (what `AgentRuntimeOptions.keyedConnectionIds` takes). */
export function keyedConnectionIdsOf(settings: { connections: readonly Pick<Connection, 'id' | 'apiKey'>[] }): string[] {
  return settings.connections.filter((connection) => connection.apiKey !== '').map((connection) => connection.id);
}

/** Whether any of these profiles is bound to one of the connections that carry a key. */
export function profilesUseKeyedConnection(profiles: Iterable<AgentProfile>, keyedConnectionIds: readonly string[]): boolean {
  if (keyedConnectionIds.length === 0) return false;
  const keyed = new Set(keyedConnectionIds);
  for (const profile of profiles) if (profile.model.binding === 'connection' && keyed.has(profile.model.connectionId)) return true;
  return false;
}

function reached(session: RunSession): boolean {
  const cap = session.run.tokenCap;
  return cap !== undefined && session.run.usage.totalTokens >= cap;
}

const tokens = (count: number) => count.toLocaleString('en-US');

const NOT_STARTED = CANCEL_REASONS.spendCap;

/**
 * Records the cap on the run once, when it is first seen (`tokenCapReachedAt`; the side panel shows
 * the `token-cap-reached` event), and cancels the tasks still queued, since no new task may start
 * (every time: a task queued meanwhile, or left queued by a stop, is refused at its start too).
 */
async function recordReached(session: RunSession): Promise<void> {
  if (session.run.tokenCapReachedAt === undefined) {
    session.run = { ...session.run, tokenCapReachedAt: session.now() };
    await session.store.putRun(session.run);
    const cap = session.run.tokenCap ?? 0;
    session.journal.note('token-cap-reached', { data: { cap, totalTokens: session.run.usage.totalTokens } });
    session.reportProgress(`Token limit reached (${tokens(session.run.usage.totalTokens)} of ${tokens(cap)}) — wrapping up`);
  }
  const queued = [...session.tasks.values()].filter((task) => task.status === 'queued');
  for (const task of queued) await cancelTask(session, task.id, NOT_STARTED);
}

export const spendCap: Limit = {
  id: 'spend-cap',
  /** A child's loop ends at once; the root's once none of its tasks is still working, so its reply has their results. */
  async stopsLoop({ session, invocation }) {
    if (session.signal.aborted || !reached(session)) return false;
    await recordReached(session);
    if (invocation.exitPolicy !== 'runFinishAllowed') return true;
    return session.tasksOf(invocation.id).every((task) => task.status !== 'queued' && task.status !== 'running');
  },
  stopNote: ({ session }) =>
    `This run has used ${tokens(session.run.usage.totalTokens)} tokens; the user set a limit of ${tokens(session.run.tokenCap ?? 0)} tokens for one turn. No new tasks can start.`,
  refusesTaskStart: ({ session }) => (reached(session) ? NOT_STARTED : undefined),
  refusesDelegation({ session }) {
    if (!reached(session)) return undefined;
    return new ModelBehaviorError(
      'run-token-cap',
      `No new task was started: this run has used ${tokens(session.run.usage.totalTokens)} tokens, and the user set a limit of ${tokens(session.run.tokenCap ?? 0)} tokens for one turn. Collect the results of the tasks you started with agent_await, then write your reply.`,
    );
  },
};
