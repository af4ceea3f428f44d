import { countText } from '../../count-text';
import { t } from '../ui-text';
import { formatCount } from './format';
import type { ModelCost } from './run-cost';

type TokenCounts = Pick<ModelCost, 'calls' | 'tokensIn' | 'tokensOut' | 'estimatedCalls' | 'unreportedCalls'>;

/** Tokens in and out, marked estimated where Retinue counted them, or "no usage reported". */
export function TokenText({ counts }: { counts: TokenCounts }) {
  if (counts.calls > 0 && counts.unreportedCalls === counts.calls) return <span class="cost-unreported">{t('sidepanel_cost_no_usage')}</span>;
  return (
    <span>
      {countText('sidepanel_cost_tokens', counts.tokensIn, formatCount(counts.tokensOut))}
      {counts.estimatedCalls > 0 && <em class="cost-estimated"> ({t('sidepanel_cost_estimated')})</em>}
      {counts.unreportedCalls > 0 && <span class="cost-unreported"> · {countText('sidepanel_cost_partly_unreported', counts.unreportedCalls)}</span>}
    </span>
  );
}
