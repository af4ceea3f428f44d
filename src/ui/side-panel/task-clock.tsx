import { signal, type ReadonlySignal } from '@preact/signals';
import { useMemo } from 'preact/hooks';
import type { AgentRun } from '../../records/run';
import type { AgentTaskRecord } from '../../records/task';
import { t } from '../ui-text';
import { formatDuration, runElapsed, taskElapsed } from './format';

/**
 * The time the panel shows elapsed times against: the panel's clock (a signal ticking once a second
 * while a run works) or a fixed time (a test, a still picture). Components read it only where a time
 * runs, so a tick re-renders the running rows' time and nothing else.
 */
export type PanelClock = number | ReadonlySignal<number>;

/** The clock as a signal, whichever form it was given in. */
export function useClockSignal(clock: PanelClock): ReadonlySignal<number> {
  return useMemo(() => (typeof clock === 'number' ? signal(clock) : clock), [clock]);
}

/** `Elapsed 1m 05s` for a task; nothing while it waits in the queue. Subscribes to the clock only while the task works. */
export function TaskElapsed({ task, clock }: { task: AgentTaskRecord; clock: ReadonlySignal<number> }) {
  if (task.startedAt === undefined) return null;
  const elapsed = taskElapsed(task, task.endedAt ?? clock.value) ?? 0;
  return <span class="task-elapsed">{t('sidepanel_elapsed', formatDuration(elapsed))}</span>;
}

/** A run's time so far, or its whole time once it ended, in the form `format` gives it. */
export function RunElapsed({ run, clock, format }: { run: AgentRun; clock: ReadonlySignal<number>; format(elapsed: string): string }) {
  return <span>{format(formatDuration(runElapsed(run, run.endedAt ?? clock.value)))}</span>;
}
