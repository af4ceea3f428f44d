import { useState } from 'preact/hooks';
import { SAMPLING_FIELDS, type SamplingField } from '../../model/sampling-sources';
import { reasoningEffortSchema, type Settings } from '../../settings/schema';
import { t, type UiMessageKey } from '../ui-text';
import { describedBy, Field } from './field';
import { readPageConnectionProfiles, type PageConnectionProfiles } from './page-connection-profiles';
import { samplingDraftOf, type SamplingDraft } from './profile-draft';

export interface SamplingFieldsProps {
  /** The form's id prefix; each control's id is `<prefix>-sampling-<field>`. */
  prefix: string;
  value: SamplingDraft;
  /** Errors by document path (`model.sampling.top_k`). */
  errors: Record<string, string>;
  settings: Settings | undefined;
  onChange: (sampling: SamplingDraft) => void;
}

const LABELS: Record<SamplingField, UiMessageKey> = {
  temperature: 'options_profile_temperature',
  top_p: 'options_profile_top_p',
  top_k: 'options_profile_top_k',
  min_p: 'options_profile_min_p',
  frequency_penalty: 'options_profile_frequency_penalty',
  presence_penalty: 'options_profile_presence_penalty',
  repetition_penalty: 'options_profile_repetition_penalty',
  max_tokens: 'options_profile_max_tokens',
  seed: 'options_profile_seed',
  reasoning_effort: 'options_profile_reasoning_effort',
};

/**
 * An agent's own sampling (its preset), typed by hand or filled from one of the open SillyTavern
 * page's Chat Completion presets by name (read through Retinue's bridge when asked, like the page's
 * connection profiles). Fields the model's source does not take are dropped when it runs.
 */
export function SamplingFields({ prefix, value, errors, settings, onChange }: SamplingFieldsProps) {
  const [listing, setListing] = useState<PageConnectionProfiles | 'reading' | undefined>();
  const [picked, setPicked] = useState('');
  const presets = typeof listing === 'object' && listing.kind === 'profiles' ? listing.presets : [];

  async function read() {
    if (!settings) return;
    setListing('reading');
    const answer = await readPageConnectionProfiles(settings);
    setListing(answer);
    if (answer.kind === 'profiles') setPicked(answer.presets[0]?.name ?? '');
  }

  function fill() {
    const preset = presets.find((candidate) => candidate.name === picked);
    if (preset) onChange(samplingDraftOf(preset.sampling));
  }

  return (
    <div class="sampling-fields">
      <p class="field-hint">{t('options_profile_sampling_hint')}</p>
      <div class="form-grid">
        {SAMPLING_FIELDS.map((field) => {
          const id = `${prefix}-sampling-${field}`;
          const error = errors[`model.sampling.${field}`];
          const set = (typed: string) => onChange({ ...value, [field]: typed });
          return (
            <Field key={field} id={id} label={t(LABELS[field])} error={error}>
              {field === 'reasoning_effort' ? (
                <select value={value[field]} onChange={(event) => set(event.currentTarget.value)} {...describedBy(id, error)}>
                  <option value="">{t('options_profile_reasoning_effort_unset')}</option>
                  {reasoningEffortSchema.options.map((effort) => <option key={effort} value={effort}>{effort}</option>)}
                </select>
              ) : (
                <input type="number" step="any" value={value[field]} onInput={(event) => set(event.currentTarget.value)} {...describedBy(id, error)} />
              )}
            </Field>
          );
        })}
      </div>
      <button type="button" onClick={() => void read()} disabled={listing === 'reading' || !settings}>
        {t('options_profile_preset_read')}
      </button>
      {typeof listing === 'object' && (
        <div class="sampling-preset-listing" role="status">
          {listing.kind === 'no-page' && <p>{t('options_connection_profiles_no_page')}</p>}
          {(listing.kind === 'no-connection-manager' || (listing.kind === 'profiles' && presets.length === 0)) && <p>{t('options_profile_preset_none')}</p>}
          {presets.length > 0 && (
            <Field id={`${prefix}-sampling-preset`} label={t('options_profile_preset_label')}>
              <select id={`${prefix}-sampling-preset`} value={picked} onChange={(event) => setPicked(event.currentTarget.value)}>
                {presets.map((preset) => <option key={preset.name} value={preset.name}>{preset.name}</option>)}
              </select>
              <button type="button" onClick={fill}>
                {t('options_profile_preset_apply')}
              </button>
            </Field>
          )}
        </div>
      )}
    </div>
  );
}
