import { useMemo } from 'preact/hooks';
import type { JournalEvent } from '../../records/journal';
import type { AgentRun } from '../../records/run';
import { t } from '../ui-text';
import { formatCount, formatDuration, formatOffset } from './format';
import { summariseRunCost, type ModelCost } from './run-cost';

type TokenCounts = Pick<ModelCost, 'calls' | 'tokensIn' | 'tokensOut' | 'estimatedCalls' | 'unreportedCalls'>;

/** Tokens in and out, marked estimated where Retinue counted them, or "no usage reported". */
function TokenText({ counts }: { counts: TokenCounts }) {
  if (counts.calls > 0 && counts.unreportedCalls === counts.calls) return <span class="cost-unreported">{t('sidepanel_cost_no_usage')}</span>;
  return (
    <span>
      {t('sidepanel_cost_tokens', formatCount(counts.tokensIn), formatCount(counts.tokensOut))}
      {counts.estimatedCalls > 0 && <em class="cost-estimated"> ({t('sidepanel_cost_estimated')})</em>}
      {counts.unreportedCalls > 0 && <span class="cost-unreported"> · {t('sidepanel_cost_partly_unreported', counts.unreportedCalls)}</span>}
    </span>
  );
}

/** A run's cost: model calls, tokens in and out, wall time; then the same by model. */
export function CostLine({ run, journal, now }: { run: AgentRun; journal: JournalEvent[]; now: number }) {
  const clock = run.status === 'running' ? now : 0;
  const cost = useMemo(() => summariseRunCost(run, journal, clock), [run, journal, clock]);
  const headingId = `cost-title-${run.id}`;
  return (
    <section class="cost-line" aria-labelledby={headingId}>
      <p class="cost-total">
        <strong id={headingId}>{t('sidepanel_cost_heading')}</strong>
        <span>{t('sidepanel_cost_calls', formatCount(cost.calls))}</span>
        {cost.calls > 0 && <TokenText counts={cost} />}
        <span>{t('sidepanel_cost_wall', formatDuration(cost.wallMilliseconds))}</span>
      </p>
      {cost.calls === 0 ? (
        <p class="muted">{t('sidepanel_cost_none')}</p>
      ) : (
        <ul class="cost-by-model" aria-label={t('sidepanel_cost_by_model')}>
          {cost.byModel.map((model) => (
            <li key={model.model} data-model={model.model}>
              <span class="cost-model">{model.model}</span>
              <span>{t('sidepanel_cost_calls', formatCount(model.calls))}</span>
              <TokenText counts={model} />
              <span>{t('sidepanel_cost_call_time', formatOffset(model.callMilliseconds))}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
