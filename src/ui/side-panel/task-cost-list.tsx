import { useMemo } from 'preact/hooks';
import type { JournalEvent } from '../../records/journal';
import { countText } from '../../count-text';
import { t } from '../ui-text';
import { formatCount } from './format';
import { modelName } from './model-name';
import { TokenText } from './token-text';
import { summariseTaskCost, tokenCapReached } from './task-cost';

/** Tokens per task and model (the root first, under `rootName` when given), estimated ones marked. */
export function TaskCostList({ journal, rootName }: { journal: readonly JournalEvent[]; rootName?: string }) {
  const costs = useMemo(() => summariseTaskCost(journal), [journal]);
  if (costs.length === 0) return null;
  return (
    <ul class="cost-by-task" aria-label={t('sidepanel_cost_by_task')}>
      {costs.map((cost) => (
        <li key={`${cost.taskName ?? ''}|${cost.model}`} data-task-name={cost.taskName ?? ''} data-model={cost.model}>
          <span class="cost-task">{cost.taskName ?? rootName ?? t('sidepanel_cost_root')}</span>
          <span class="cost-model">{modelName(cost)}</span>
          <span>{countText('sidepanel_cost_calls', cost.calls)}</span>
          <TokenText counts={cost} />
        </li>
      ))}
    </ul>
  );
}

/** Says that the run stopped delegating at its token limit (`budget.maxRunTokens`), once it did. */
export function TokenCapNote({ journal }: { journal: readonly JournalEvent[] }) {
  const reached = useMemo(() => tokenCapReached(journal), [journal]);
  if (!reached) return null;
  return (
    <p class="token-cap-note" role="note">
      {t('sidepanel_token_cap_reached', formatCount(reached.totalTokens), formatCount(reached.cap))}
    </p>
  );
}
