import type { JournalEvent } from '../../records/journal';
import type { AgentRun } from '../../records/run';
import type { AgentTaskRecord } from '../../records/task';
import { taskDisplayStatus, type TaskDisplayStatus } from './format';
import { timelineNotesByBar, type TimelineNote } from './timeline-notes';

/** A bar's status: a task's display status, or the run's for the root. */
export type TimelineStatus = TaskDisplayStatus | 'interrupted';

/** One invocation on the timeline: the root, or the child working on one task. */
export interface TimelineBar {
  /** `root`, or the task id. */
  id: string;
  /** The root's profile, or the task's workspace key (its name for models and in the task list). */
  label: string;
  title?: string;
  /** 0 for the root, 1 for its children, 2 for theirs... */
  depth: number;
  status: TimelineStatus;
  /** When it was delegated (tasks only); a task waits in the queue until `start`. */
  queuedAt?: number;
  /** Undefined while it waits in the queue. */
  start?: number;
  /** Undefined while it runs. */
  end?: number;
  rounds: number;
  maxRounds?: number;
  /** Notes the user sent to this invocation, marked on its bar at the moment each was sent. */
  notes?: TimelineNote[];
}

export interface RunTimeline {
  /** The run's start: the left edge. */
  origin: number;
  /** The run's end, or now while it runs: the right edge. */
  horizon: number;
  bars: TimelineBar[];
  /** When the root started writing the reply the page got, and when it had written it. */
  replyStart?: number;
  replyEnd?: number;
}


function taskBar(task: AgentTaskRecord, depth: number): TimelineBar {
  return {
    id: task.id,
    label: task.workspaceKey,
    title: task.task.title,
    depth,
    status: taskDisplayStatus(task),
    queuedAt: task.createdAt,
    start: task.startedAt,
    end: task.endedAt ?? (task.status === 'running' || task.status === 'queued' ? undefined : task.startedAt),
    rounds: task.usage.rounds,
    maxRounds: task.budget.maxRounds,
  };
}

/** Tasks under their parent, each parent's children in delegation order; orphans go under the root. */
function orderedTaskBars(run: AgentRun, tasks: readonly AgentTaskRecord[]): TimelineBar[] {
  const byParent = new Map<string, AgentTaskRecord[]>();
  const childInvocations = new Set(tasks.map((task) => task.childInvocationId));
  for (const task of tasks) {
    const parent = childInvocations.has(task.parentInvocationId) ? task.parentInvocationId : run.rootInvocationId;
    byParent.set(parent, [...(byParent.get(parent) ?? []), task]);
  }
  const bars: TimelineBar[] = [];
  const visited = new Set<string>();
  const visit = (invocationId: string, depth: number): void => {
    for (const task of byParent.get(invocationId) ?? []) {
      if (visited.has(task.id)) continue;
      visited.add(task.id);
      bars.push(taskBar(task, depth));
      visit(task.childInvocationId, depth + 1);
    }
  };
  visit(run.rootInvocationId, 1);
  return bars;
}

/**
 * The root's reply is the text of its last successful model call that asked for no tools: that call's
 * start and end are when the reply began and was done.
 */
function replyMoments(run: AgentRun, journal: readonly JournalEvent[]): { replyStart?: number; replyEnd?: number } {
  if (run.reply === undefined) return {};
  let lastStart: number | undefined;
  let moments: { replyStart?: number; replyEnd?: number } = {};
  for (const event of journal) {
    if (event.invocationId !== run.rootInvocationId) continue;
    if (event.type === 'model-call-start') lastStart = event.time;
    if (event.type !== 'model-call-end') continue;
    if (event.data.ok === true && (event.data.toolCalls ?? 0) === 0) moments = { replyStart: lastStart, replyEnd: event.time };
  }
  return moments;
}

/** The root profile the run started with, as its `run-start` event names it. */
export function rootProfileIdOf(journal: readonly JournalEvent[]): string {
  for (const event of journal) if (event.type === 'run-start') return event.data.rootProfileId ?? 'root';
  return 'root';
}

/** The timeline with the root's bar under the root agent's name for the user (its profile's name). */
export function withRootName(timeline: RunTimeline, rootName: string | undefined): RunTimeline {
  if (rootName === undefined) return timeline;
  return { ...timeline, bars: timeline.bars.map((bar) => (bar.id === 'root' ? { ...bar, label: rootName } : bar)) };
}

function rootRounds(run: AgentRun, journal: readonly JournalEvent[]): number {
  let rounds = 0;
  for (const event of journal) {
    if (event.type !== 'model-call-end' || event.invocationId !== run.rootInvocationId) continue;
    if (event.data.ok === true) rounds += 1;
  }
  return rounds;
}

function rootEnd(run: AgentRun, journal: readonly JournalEvent[]): number | undefined {
  if (run.status === 'running') return undefined;
  const ended = journal.find((event) => event.type === 'invocation-end' && event.invocationId === run.rootInvocationId);
  return ended?.time ?? run.endedAt;
}

/**
 * The timeline of one run: the root's bar, then one per task, nested under its parent, each with
 * the notes sent to it, and the moments the reply started and ended. `now` closes the bars that still run.
 */
export function buildRunTimeline(run: AgentRun, tasks: readonly AgentTaskRecord[], journal: readonly JournalEvent[], now: number): RunTimeline {
  const root: TimelineBar = {
    id: 'root',
    label: rootProfileIdOf(journal),
    depth: 0,
    status: run.status === 'completed' ? 'completed' : run.status,
    start: run.createdAt,
    end: rootEnd(run, journal),
    rounds: rootRounds(run, journal),
  };
  const notes = timelineNotesByBar(run.guidance ?? [], journal);
  const bars = [root, ...orderedTaskBars(run, tasks)].map((bar) => {
    const barNotes = notes.get(bar.id);
    return barNotes ? { ...bar, notes: barNotes } : bar;
  });
  const latestEnd = Math.max(run.endedAt ?? 0, ...bars.map((bar) => bar.end ?? bar.start ?? 0));
  const horizon = run.status === 'running' ? Math.max(now, latestEnd) : Math.max(latestEnd, run.createdAt + 1);
  return { origin: run.createdAt, horizon, bars, ...replyMoments(run, journal) };
}

/** A time as milliseconds from the run's start, for the stylesheet to place against `--timeline-span`. */
export function timelineOffset(timeline: RunTimeline, time: number): number {
  return Math.max(0, time - timeline.origin);
}

/** Where a time falls between the timeline's edges, as a percentage (0–100). */
export function timelinePercent(timeline: RunTimeline, time: number): number {
  const span = Math.max(1, timeline.horizon - timeline.origin);
  return Math.min(100, Math.max(0, ((time - timeline.origin) / span) * 100));
}
