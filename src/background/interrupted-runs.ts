import type { AgentInvocation } from '../records/invocation';
import type { AgentRun } from '../records/run';
import type { AgentTaskRecord } from '../records/task';
import { addUsage, emptyUsage } from '../records/usage';
import type { RunStore } from '../store/run-store';
import type { BackgroundContext } from './background-context';

/**
 * How long after start-up a page may reconnect to a run it is still waiting for. The bridge reconnects
 * at once when its port drops (which is what wakes the new service worker), so a few seconds would do;
 * 20 s leaves room for a slow start while staying under the 30 s after which Chrome stops an idle
 * worker, so the sweep really runs in the worker that started it.
 */
export const RECONNECT_GRACE_MS = 20_000;

/**
 * How long after start-up the sweep waits before it lists the store's runs: the listing reads every
 * run record (tens of milliseconds with a few thousand), and the event that woke the worker, a turn
 * most often, goes first. The grace period still ends `RECONNECT_GRACE_MS` after start-up.
 */
export const STARTUP_LISTING_DELAY_MS = 5_000;

/** The error an interrupted run carries: what happened and what to do, for a person. */
export const INTERRUPTED_ERROR = {
  code: 'interrupted',
  message:
    'Retinue was restarted (the browser or its background stopped) while this run was working, and the page was no longer waiting for it. Finished task results are kept; send the message again for a new reply.',
} as const;

/** The same for a run that had given its reply (helpers were still working after it): the reply stands. */
export const INTERRUPTED_AFTER_REPLY_ERROR = {
  code: 'interrupted',
  message:
    'Retinue was restarted (the browser or its background stopped) while helpers of this run still worked after its reply, and no page took them up again. The reply stands and finished results are kept; run an unfinished helper again from the side panel if you need its result.',
} as const;

const UNFINISHED_TASK = new Set<AgentTaskRecord['status']>(['queued', 'running']);
const UNFINISHED_INVOCATION = new Set<AgentInvocation['status']>(['created', 'running']);

export interface InterruptedRunRecoveryOptions {
  context: BackgroundContext;
  /** Resolves when the waking event has had its head start; defaults to waiting `STARTUP_LISTING_DELAY_MS`. */
  waitBeforeListing?: () => Promise<void>;
  /** Resolves when pages have had their chance to reconnect; defaults to `RECONNECT_GRACE_MS` after start-up. */
  waitForGrace?: () => Promise<void>;
  now?: () => number;
}

/**
 * Closes one run nobody can continue: unfinished tasks are cancelled (a task whose result was already
 * handed over is completed, so no capsule is lost), unfinished invocations cancelled, the run
 * `interrupted` with its usage so far; each end goes into the journal, the run's last as `run-end`.
 */
export async function markRunInterrupted(store: RunStore, run: AgentRun, now: number): Promise<AgentRun> {
  const error = run.repliedAt !== undefined ? { ...INTERRUPTED_AFTER_REPLY_ERROR } : { ...INTERRUPTED_ERROR };
  const tasks = await store.listTasks(run.id);
  const invocations = await store.listInvocations(run.id);
  const completedChildren = new Set<string>();
  for (const task of tasks) {
    if (!UNFINISHED_TASK.has(task.status)) continue;
    // A result file means the child finished; only the bookkeeping after it was lost.
    const ended: AgentTaskRecord = task.resultRef
      ? { ...task, status: 'completed', endedAt: now }
      : { ...task, status: 'cancelled', endedAt: now, error };
    if (task.resultRef) completedChildren.add(task.childInvocationId);
    await store.putTask(ended);
    await store.appendJournal({
      runId: run.id,
      type: 'task-end',
      time: now,
      invocationId: task.parentInvocationId,
      taskId: task.id,
      data: { status: ended.status, resultStatus: ended.resultStatus, workspaceKey: task.workspaceKey, usage: ended.usage, ...(ended.error ? { error } : {}) },
    });
  }
  for (const invocation of invocations) {
    if (!UNFINISHED_INVOCATION.has(invocation.status)) continue;
    const status = completedChildren.has(invocation.id) ? 'completed' : 'cancelled';
    const ended: AgentInvocation = { ...invocation, status, endedAt: now, ...(status === 'cancelled' ? { error } : {}) };
    await store.putInvocation(ended);
    await store.appendJournal({
      runId: run.id,
      type: 'invocation-end',
      time: now,
      invocationId: invocation.id,
      data: { status, usage: ended.usage, ...(status === 'cancelled' ? { error } : {}) },
    });
  }
  // The run's usage is saved at its end; until then each invocation's, saved every round, is the truth.
  const usage = invocations.reduce((total, invocation) => addUsage(total, invocation.usage), emptyUsage());
  const interrupted: AgentRun = { ...run, status: 'interrupted', endedAt: now, error, usage };
  await store.putRun(interrupted);
  await store.appendJournal({ runId: run.id, type: 'run-end', time: now, data: { status: 'interrupted', usage, error } });
  return interrupted;
}

/**
 * What to do at start-up about runs a previous background left `running`: wait the grace period for
 * their pages to reconnect (the run port handler resumes those), then mark the rest interrupted.
 * Resolves with the runs it marked.
 *
 * @example
 * void recoverInterruptedRuns({ context: sharedBackgroundContext() });
 */
export async function recoverInterruptedRuns(options: InterruptedRunRecoveryOptions): Promise<AgentRun[]> {
  const now = options.now ?? Date.now;
  const startedAt = now();
  const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));
  await (options.waitBeforeListing ?? (() => wait(STARTUP_LISTING_DELAY_MS)))();
  const store = await options.context.getStore();
  // Runs this background starts itself are newer than its start and never candidates.
  const leftRunning = (await store.listRuns()).filter((run) => run.status === 'running' && run.createdAt < startedAt);
  if (leftRunning.length === 0) return [];
  await (options.waitForGrace ?? (() => wait(startedAt + RECONNECT_GRACE_MS - now())))();
  const marked: AgentRun[] = [];
  for (const candidate of leftRunning) {
    const current = await store.getRun(candidate.id);
    if (current?.status !== 'running') continue;
    if (!options.context.runClaims.claimForInterrupt(current.id)) continue;
    marked.push(await markRunInterrupted(store, current, now()));
  }
  return marked;
}

/**
 * Starts the recovery in the background's start-up; a failure is logged (the runs stay `running` and
 * the next start-up tries again), never thrown into the worker's top level.
 */
export function installInterruptedRunRecovery(options: InterruptedRunRecoveryOptions): void {
  recoverInterruptedRuns(options).catch((error: unknown) => console.error('Retinue could not close the runs a restart interrupted', error));
}
