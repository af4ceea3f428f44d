import { useMemo } from 'preact/hooks';
import type { JournalEvent } from '../../records/journal';
import type { AgentRun } from '../../records/run';
import { countText } from '../../count-text';
import { t } from '../ui-text';
import { formatOffset } from './format';
import { modelName } from './model-name';
import { summariseRunCost } from './run-cost';
import { HistoryCapNote } from './history-cap-note';
import { TaskCostList, TokenCapNote } from './task-cost-list';
import { TokenText } from './token-text';
import { RunElapsed, useClockSignal, type PanelClock } from './task-clock';

/** A run's cost: model calls, tokens in and out, wall time; then the same by model and by task; the token limit once reached. */
export function CostLine({ run, journal, now, rootName }: { run: AgentRun; journal: JournalEvent[]; now: PanelClock; rootName?: string }) {
  const clock = useClockSignal(now);
  // The sums change with the journal, not the clock: only the wall time below reads the clock.
  const cost = useMemo(() => summariseRunCost(run, journal, run.endedAt ?? run.createdAt), [run, journal]);
  const headingId = `cost-title-${run.id}`;
  return (
    <section class="cost-line" aria-labelledby={headingId}>
      <p class="cost-total">
        <strong id={headingId}>{t('sidepanel_cost_heading')}</strong>
        <span>{countText('sidepanel_cost_calls', cost.calls)}</span>
        {cost.calls > 0 && <TokenText counts={cost} />}
        <RunElapsed run={run} clock={clock} format={(elapsed) => t('sidepanel_cost_wall', elapsed)} />
      </p>
      {cost.calls === 0 ? (
        <p class="muted">{t('sidepanel_cost_none')}</p>
      ) : (
        <ul class="cost-by-model" aria-label={t('sidepanel_cost_by_model')}>
          {cost.byModel.map((model) => (
            <li key={model.model} data-model={model.model}>
              <span class="cost-model">{modelName(model)}</span>
              <span>{countText('sidepanel_cost_calls', model.calls)}</span>
              <TokenText counts={model} />
              <span>{t('sidepanel_cost_call_time', formatOffset(model.callMilliseconds))}</span>
            </li>
          ))}
        </ul>
      )}
      <TaskCostList journal={journal} {...(rootName !== undefined ? { rootName } : {})} />
      <TokenCapNote journal={journal} />
      <HistoryCapNote journal={journal} />
    </section>
  );
}
