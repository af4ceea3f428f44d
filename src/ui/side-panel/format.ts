import type { AgentRun } from '../../records/run';
import type { AgentTaskRecord } from '../../records/task';

/** What the side panel shows as a task's status: a completed task with a partial capsule is `partial`. */
export type TaskDisplayStatus = 'queued' | 'running' | 'completed' | 'partial' | 'failed' | 'cancelled';

export function taskDisplayStatus(task: AgentTaskRecord): TaskDisplayStatus {
  if (task.status !== 'completed') return task.status;
  if (task.resultStatus === 'partial') return 'partial';
  if (task.resultStatus === 'failed') return 'failed';
  return 'completed';
}

/** Queued and running tasks can still be cancelled. */
export function isTaskCancellable(task: AgentTaskRecord): boolean {
  return task.status === 'queued' || task.status === 'running';
}

/** `4s`, `2m 05s`, `1h 02m`. */
export function formatDuration(milliseconds: number): string {
  const totalSeconds = Math.max(0, Math.floor(milliseconds / 1_000));
  const hours = Math.floor(totalSeconds / 3_600);
  const minutes = Math.floor((totalSeconds % 3_600) / 60);
  const seconds = totalSeconds % 60;
  if (hours > 0) return `${hours}h ${String(minutes).padStart(2, '0')}m`;
  if (minutes > 0) return `${minutes}m ${String(seconds).padStart(2, '0')}s`;
  return `${seconds}s`;
}

/** How long a task has worked; undefined while it waits in the queue. */
export function taskElapsed(task: AgentTaskRecord, now: number): number | undefined {
  if (task.startedAt === undefined) return undefined;
  return (task.endedAt ?? now) - task.startedAt;
}

export function runElapsed(run: AgentRun, now: number): number {
  return (run.endedAt ?? now) - run.createdAt;
}

const numberFormat = new Intl.NumberFormat();

export function formatCount(count: number): string {
  return numberFormat.format(count);
}

// One formatter for every row: building a DateTimeFormat per call dominated the history's render time.
const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' });

/** A local date and time, short. */
export function formatTime(time: number): string {
  return timeFormat.format(time);
}

/** A moment counted from the start of a run: `12.3s` under a minute, else as {@link formatDuration}. */
export function formatOffset(milliseconds: number): string {
  if (milliseconds < 60_000) return `${(Math.max(0, milliseconds) / 1_000).toFixed(1)}s`;
  return formatDuration(milliseconds);
}
