import type { AgentInvocation } from '../records/invocation';
import type { JournalEvent } from '../records/journal';
import type { AgentRun } from '../records/run';
import type { AgentTaskRecord } from '../records/task';
import type { RunStore } from '../store/run-store';

/** Everything the runner knows about one finished run, as `--json` prints it. */
export interface RunnerReport {
  run: AgentRun;
  reply: string;
  invocations: AgentInvocation[];
  tasks: AgentTaskRecord[];
  /** The structured capsules of `agent-results/`, with the physical path each was stored under. */
  capsules: { path: string; capsule: unknown }[];
  journal: JournalEvent[];
}

/** Reads the run's records from the store. */
export async function collectRunnerReport(store: RunStore, run: AgentRun, reply: string): Promise<RunnerReport> {
  const [invocations, tasks, resultFiles, journal] = await Promise.all([
    store.listInvocations(run.id),
    store.listTasks(run.id),
    store.listFiles(run.id, 'agent-results/'),
    store.readJournal(run.id),
  ]);
  const capsules = resultFiles.map((file) => ({ path: file.path, capsule: parseOrKeep(file.content) }));
  return { run, reply, invocations, tasks, capsules, journal };
}

function parseOrKeep(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const COLUMNS = ['agent', 'status', 'rounds', 'tool calls', 'tokens', 'seconds'] as const;

/**
 * The table of work the run did: the root agent first, then each delegated task (by its name, the
 * workspace key), with status, rounds, tool calls, tokens and seconds.
 */
export function formatTaskTable(report: RunnerReport, now: number = Date.now()): string {
  const root = report.invocations.find((invocation) => invocation.id === report.run.rootInvocationId);
  const rows: string[][] = [];
  if (root) {
    rows.push([
      root.profileId === 'root' ? 'root' : `${root.profileId} (root)`,
      report.run.status,
      String(root.usage.rounds),
      String(root.usage.toolCalls),
      String(root.usage.totalTokens),
      seconds(report.run.createdAt, report.run.endedAt ?? now),
    ]);
  }
  for (const task of report.tasks) {
    rows.push([
      task.workspaceKey === task.targetProfileId ? task.workspaceKey : `${task.workspaceKey} (${task.targetProfileId})`,
      task.resultStatus === 'partial' && task.status === 'completed' ? 'completed (partial)' : task.status,
      String(task.usage.rounds),
      String(task.usage.toolCalls),
      String(task.usage.totalTokens),
      task.startedAt === undefined ? '-' : seconds(task.startedAt, task.endedAt ?? now),
    ]);
  }
  const widths = COLUMNS.map((column, index) => Math.max(column.length, ...rows.map((row) => (row[index] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, index) => (index >= 2 ? cell.padStart(widths[index] ?? 0) : cell.padEnd(widths[index] ?? 0)))
      .join('  ')
      .trimEnd();
  const taskNote = report.tasks.length === 0 ? '\n(no tasks were delegated)' : '';
  return [line(COLUMNS), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n') + taskNote;
}

function seconds(from: number, to: number): string {
  return (Math.max(0, to - from) / 1000).toFixed(1);
}
