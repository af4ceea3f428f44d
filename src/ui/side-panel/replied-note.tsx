import type { AgentRun } from '../../records/run';
import type { AgentTaskRecord } from '../../records/task';
import { countText } from '../../count-text';

/** "replied; N helpers still working": a run whose reply went to the page before its helpers ended. */
export function RepliedNote({ run, tasks }: { run: AgentRun; tasks: readonly AgentTaskRecord[] }) {
  if (run.status !== 'running' || run.repliedAt === undefined) return null;
  const working = tasks.filter((task) => task.status === 'queued' || task.status === 'running').length;
  return <p class="replied-note muted" role="status">{countText('sidepanel_replied_helpers_working', working)}</p>;
}
