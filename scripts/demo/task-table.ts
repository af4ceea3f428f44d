import type { RunStoreSnapshot } from '../../tests/e2e/support/settings';

/**
 * The delegated tasks of the newest run as a plain-text table for the terminal (the snapshot keeps
 * runs newest first and tasks in creation order).
 *
 * @example
 * console.log(formatTaskTable(await readRunStore(optionsPage)));
 */
export function formatTaskTable(snapshot: RunStoreSnapshot): string {
  const newestRun = snapshot.runs[0];
  if (!newestRun) return '(no run was recorded: is the runtime wired into the background yet?)';
  const tasks = snapshot.tasks.filter((task) => task.runId === newestRun.id);
  const header = `Run ${String(newestRun.id)} — ${String(newestRun.status)}${newestRun.title ? ` — ${String(newestRun.title)}` : ''}`;
  if (tasks.length === 0) return `${header}\n(no delegated tasks)`;
  const rows = tasks.map((task) => {
    const brief = (task.task ?? {}) as { title?: unknown };
    const usage = (task.usage ?? {}) as { rounds?: unknown; toolCalls?: unknown; totalTokens?: unknown };
    return [
      String(task.workspaceKey ?? task.targetProfileId ?? '?'),
      String(task.status ?? '?'),
      String(task.resultStatus ?? ''),
      String(brief.title ?? ''),
      usage.rounds === undefined ? '' : `${plural(Number(usage.rounds), 'round')}, ${plural(Number(usage.toolCalls ?? 0), 'tool call')}`,
    ];
  });
  const headings = ['task', 'status', 'result', 'title', 'used'];
  const widths = headings.map((heading, column) => Math.max(heading.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd();
  return [header, line(headings), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
