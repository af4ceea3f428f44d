import type { AgentTaskRecord } from '../../records/task';
import { countText } from '../../count-text';
import { t } from '../ui-text';

/** Calls and tokens of the helpers this run started on their cadence; undefined when it started none. */
export function cadenceUsage(tasks: readonly AgentTaskRecord[]): { calls: number; tokens: number } | undefined {
  const started = tasks.filter((task) => task.startedBy === 'cadence');
  if (started.length === 0) return undefined;
  return started.reduce((sum, task) => ({ calls: sum.calls + task.usage.rounds, tokens: sum.tokens + task.usage.totalTokens }), { calls: 0, tokens: 0 });
}

/** "Helpers on a cadence this turn: 3 calls, 1,240 tokens": what running on a cadence costs, per run. */
export function CadenceUsageLine({ tasks }: { tasks: readonly AgentTaskRecord[] }) {
  const usage = cadenceUsage(tasks);
  if (!usage) return null;
  return <p class="cadence-usage muted">{t('sidepanel_cadence_usage', countText('count_calls', usage.calls), countText('sidepanel_tokens', usage.tokens))}</p>;
}
