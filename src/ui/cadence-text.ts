import { t } from './ui-text';

/** A profile's `runs` words in the user's language ("every 3 turns" → "每 3 轮"). */
export function runsText(runs: string): string {
  if (runs === 'every turn') return t('cadence_every_turn');
  if (runs === 'after the reply') return t('cadence_after_reply');
  if (runs === 'on demand') return t('cadence_on_demand');
  const every = /^every (\d+) turns$/.exec(runs);
  if (every) return t('cadence_every_n_turns', every[1] ?? '');
  return t('cadence_when_asked');
}
