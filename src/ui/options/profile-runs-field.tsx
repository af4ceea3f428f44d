import { t } from '../ui-text';
import { runsText } from '../cadence-text';
import { describedBy, Field } from './field';

type RunsChoice = 'when asked' | 'every turn' | 'every N turns' | 'after the reply' | 'on demand';
const CHOICES: readonly RunsChoice[] = ['when asked', 'every turn', 'every N turns', 'after the reply', 'on demand'];
const EVERY_N = /^every (\d+) turns$/;

function choiceOf(runs: string): RunsChoice {
  return EVERY_N.test(runs) ? 'every N turns' : (CHOICES.find((choice) => choice === runs) ?? 'when asked');
}

/**
 * When an agent runs (`runs` in the profile): a choice, and for "every N turns" the N. The draft
 * keeps the words the profile stores, so a number out of range shows the schema's message here.
 */
export function ProfileRunsField(props: { id: string; runs: string; error?: string; onChange: (runs: string) => void }) {
  const choice = choiceOf(props.runs);
  const turns = EVERY_N.exec(props.runs)?.[1] ?? '2';
  const choose = (next: RunsChoice) => props.onChange(next === 'every N turns' ? `every ${turns} turns` : next);
  return (
    <Field id={props.id} label={t('cadence_field_label')} error={props.error} hint={t('cadence_field_hint')}>
      <select value={choice} onChange={(event) => choose(event.currentTarget.value as RunsChoice)} {...describedBy(props.id, props.error, true)}>
        {CHOICES.map((value) => (
          <option key={value} value={value}>
            {value === 'every N turns' ? t('cadence_every_n_turns_choice') : runsText(value)}
          </option>
        ))}
      </select>
      {choice === 'every N turns' && (
        <label class="inline-number">
          {t('cadence_every_n_turns_count')}
          <input type="number" min={2} max={99} value={turns} onInput={(event) => props.onChange(`every ${event.currentTarget.value.trim()} turns`)} />
        </label>
      )}
    </Field>
  );
}
