import type { TaskRanWith } from '../../records/task-ran-with';
import { SAMPLING_FIELDS } from '../../model/sampling-sources';
import { t } from '../ui-text';
import { modelName } from './model-name';

/** `temperature 0.2 · top_k 40`, in the fields' usual order. */
export function samplingText(sampling: TaskRanWith['sampling']): string {
  return SAMPLING_FIELDS.flatMap((field) => (sampling[field] === undefined ? [] : [`${field} ${sampling[field]}`])).join(' · ');
}

/**
 * The model and the preset or sampling a helper ran with, under its task row; and, once, the fields
 * of its own sampling that its source does not take (left out of its calls).
 */
export function TaskRanWithLine({ ranWith }: { ranWith: TaskRanWith }) {
  const sampling = samplingText(ranWith.sampling);
  const parts = [t('sidepanel_ran_with_model', modelName(ranWith)), ...(ranWith.preset !== undefined ? [t('sidepanel_ran_with_preset', ranWith.preset)] : []), ...(sampling ? [sampling] : [])];
  return (
    <div class="task-ran-with" data-ran-with>
      <span class="task-ran-with-label">{t('sidepanel_ran_with_label')}</span> <span data-ran-with-parts>{parts.join(' · ')}</span>
      {ranWith.dropped.length > 0 && (
        <div class="task-ran-with-dropped" data-ran-with-dropped>
          {t('sidepanel_ran_with_dropped', ranWith.dropped.join(', '))}
        </div>
      )}
    </div>
  );
}
