import type { AgentTaskRecord } from '../records/task';
import type { RunSession } from './run-session';
import { recordMemoryVersion } from './agent-memory';

/** How long one wait for the helpers lasts before it looks again (a wake-up, not a limit). */
const HELPER_POLL_MS = 60_000;

function unfinished(session: RunSession): AgentTaskRecord[] {
  return [...session.tasks.values()].filter((task) => task.status === 'queued' || task.status === 'running');
}

/** Helpers that start only once the reply is out (cadence `after the reply`): how many, and how. */
export interface AfterReplyStart {
  count: number;
  start: () => Promise<unknown>;
}

/**
 * With a reply deadline, helpers still working when the root replies outlive the reply: the reply
 * is stored and handed to the page now (`onEarlyReply`), and this waits until every helper ended
 * within its own budget and timeout (or the run was stopped). Helpers that run after the reply are
 * started once the reply went out, so they never delay it. Without a deadline and with none of
 * those, or with nothing left working, nothing happens and the run ends as before. Resolves true
 * when it replied early.
 */
export async function replyWhileHelpersWork(session: RunSession, reply: string, replyStreamed: boolean, afterReply?: AfterReplyStart): Promise<boolean> {
  const working = unfinished(session);
  const startsAfter = afterReply !== undefined && afterReply.count > 0 && reply !== '';
  if (session.signal.aborted || !(startsAfter || (session.replyDue.enabled && working.length > 0))) return false;
  const stillWorking = working.length + (startsAfter ? afterReply.count : 0);
  session.run = { ...session.run, reply, repliedAt: session.now() };
  await session.store.putRun(session.run);
  // The next turn may start before the helpers end: it continues from the memory as it stands now.
  await recordMemoryVersion(session.store, session.run, session.snapshot, reply, session.now());
  session.journal.note('run-reply', { data: { stillWorking } });
  try {
    session.onEarlyReply?.({ reply, replyStreamed, stillWorking });
  } catch {
    // A listener that throws must not stop the helpers; the reply is stored on the run.
  }
  if (startsAfter) await afterReply.start();
  await untilHelpersEnd(session);
  return true;
}

/** Waits until no task of the run is queued or running, or the run was stopped. */
export async function untilHelpersEnd(session: RunSession): Promise<void> {
  while (unfinished(session).length > 0 && !session.signal.aborted) {
    await session.scheduler.waitForChange(HELPER_POLL_MS, session.signal);
  }
}
