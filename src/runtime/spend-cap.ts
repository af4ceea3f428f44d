/**
 * The run's spend cap (`budget.maxRunTokens` of the root's profile, else `defaults.maxRunTokens`):
 * once the run's model calls have used that many tokens, no new delegation starts (queued tasks
 * are cancelled, `agent.delegate` refuses), running tasks get their wrap-up call at their next
 * round, and the root, once its tasks have ended, is told and writes the reply. Every invocation
 * makes at most one more call after the cap, so the run stops near it, not exactly at it.
 */
import { ModelBehaviorError } from '../errors';
import type { AgentProfile, SettingsDefaults } from '../settings/schema';
import { cancelTask } from './child-task';
import type { InvocationDriver } from './invocation-driver';
import type { RunSession } from './run-session';

/** The cap for a run whose root has this profile; undefined means no cap. */
export function runTokenCapOf(rootProfile: AgentProfile, defaults: SettingsDefaults): number | undefined {
  return rootProfile.budget.maxRunTokens ?? defaults.maxRunTokens;
}

/** Whether the run has used its token cap. */
export function spendCapReached(session: RunSession): boolean {
  const cap = session.runTokenCap;
  return cap !== undefined && session.run.usage.totalTokens >= cap;
}

const tokens = (count: number) => count.toLocaleString('en-US');

/** Said to an invocation before its wrap-up at the cap (the wrap-up instruction follows it). */
export function spendCapNote(session: RunSession): string {
  return `This run has used ${tokens(session.run.usage.totalTokens)} tokens; the user set a limit of ${tokens(session.runTokenCap ?? 0)} tokens for one turn. No new tasks can start.`;
}

/** What `agent.delegate` answers once the run is at its cap. */
export function refuseDelegationAtSpendCap(session: RunSession): void {
  if (!spendCapReached(session)) return;
  throw new ModelBehaviorError(
    'run-token-cap',
    `No new task was started: this run has used ${tokens(session.run.usage.totalTokens)} tokens, and the user set a limit of ${tokens(session.runTokenCap ?? 0)} tokens for one turn. Collect the results of the tasks you started with agent_await, then write your reply.`,
  );
}

const noted = new WeakSet<RunSession>();

/**
 * Records the cap once per run when it is first seen: a `token-cap-reached` journal event (the side
 * panel says so) and queued tasks cancelled, since no new task may start.
 */
async function noteSpendCap(session: RunSession): Promise<void> {
  if (noted.has(session)) return;
  noted.add(session);
  session.journal.note('token-cap-reached', { data: { cap: session.runTokenCap, totalTokens: session.run.usage.totalTokens } });
  session.reportProgress(`Token limit reached (${tokens(session.run.usage.totalTokens)} of ${tokens(session.runTokenCap ?? 0)}) — wrapping up`);
  const queued = [...session.tasks.values()].filter((task) => task.status === 'queued');
  for (const task of queued) await cancelTask(session, task.id, 'Not started: the run reached its token limit.');
}

/**
 * Whether the cap ends this invocation's loop now: a child's at once (its wrap-up follows); the
 * root's once none of its tasks is still working, so the reply it writes has their results.
 */
export async function spendCapStopsRound(driver: InvocationDriver): Promise<boolean> {
  const { session } = driver;
  if (driver.signal.aborted || !spendCapReached(session)) return false;
  await noteSpendCap(session);
  if (driver.policy.exitPolicy !== 'runFinishAllowed') return true;
  return session.tasksOf(driver.invocation.id).every((task) => task.status !== 'queued' && task.status !== 'running');
}
