/**
 * The cap on a run's stored history (`historyCapBytes` on the run record, fixed at its start): the
 * prompt snapshot and every invocation's messages, in UTF-8 bytes as the run store counts them while
 * it writes (`RunStore.writtenBytes`). Past it the run ends as at its spend cap: no new delegation
 * starts (queued tasks are cancelled), running tasks get their wrap-up call, and the root, once its
 * tasks have ended, is told and writes the reply. Each invocation makes at most one more call.
 */
import { ModelBehaviorError } from '../../errors';
import type { RunSession } from '../run-session';
import { cancelTask } from '../task-ending';
import type { Limit } from './limit';
import { CANCEL_REASONS } from '../cancel-reasons';

/**
 * 16 MiB: a snapshot at its largest (4 M characters) with room for what the agents add (tool results,
 * replies: well under 1 MB in an ordinary run), and a quarter of what one site may keep in all
 * (`ORIGIN_STORAGE_QUOTA_BYTES`), so one run cannot fill a site's share alone.
 */
export const RUN_HISTORY_CAP_BYTES = 16 * 1024 * 1024;

function historyBytes(session: RunSession): number {
  return session.store.writtenBytes?.(session.run.id)?.history ?? 0;
}

function reached(session: RunSession): boolean {
  const cap = session.run.historyCapBytes;
  return cap !== undefined && historyBytes(session) >= cap;
}

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
const NOT_STARTED = CANCEL_REASONS.historyCap;

/** Records the cap on the run once (`history-cap-reached` in the journal, a progress line), and cancels queued tasks. */
async function recordReached(session: RunSession): Promise<void> {
  if (session.run.historyCapReachedAt === undefined) {
    session.run = { ...session.run, historyCapReachedAt: session.now() };
    await session.store.putRun(session.run);
    const cap = session.run.historyCapBytes ?? 0;
    const bytes = historyBytes(session);
    session.journal.note('history-cap-reached', { data: { cap, historyBytes: bytes } });
    session.reportProgress(`History size limit reached (${megabytes(bytes)} of ${megabytes(cap)}) — wrapping up`);
  }
  const queued = [...session.tasks.values()].filter((task) => task.status === 'queued');
  for (const task of queued) await cancelTask(session, task.id, NOT_STARTED);
}

export const historyCap: Limit = {
  id: 'history-cap',
  async stopsLoop({ session, invocation }) {
    if (session.signal.aborted || !reached(session)) return false;
    await recordReached(session);
    if (invocation.exitPolicy !== 'runFinishAllowed') return true;
    return session.tasksOf(invocation.id).every((task) => task.status !== 'queued' && task.status !== 'running');
  },
  stopNote: () => 'This run has written as much history as Retinue keeps for one turn. No new tasks can start.',
  refusesTaskStart: ({ session }) => (reached(session) ? NOT_STARTED : undefined),
  refusesDelegation({ session }) {
    if (!reached(session)) return undefined;
    return new ModelBehaviorError(
      'run-history-cap',
      'No new task was started: this run has written as much history as Retinue keeps for one turn. Collect the results of the tasks you started with agent_await, then write your reply.',
    );
  },
};
