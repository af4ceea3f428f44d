import { useState } from 'preact/hooks';
import { resolveProfiles } from '../../profiles/built-in-profiles';
import { defaultsSchema, type SettingsDefaults } from '../../settings/schema';
import { issuesFromZod } from '../../settings/settings-errors';
import { t } from '../ui-text';
import { describedBy, Field, issuesByPath } from './field';
import type { OptionsState } from './options-state';

type NumberField = 'maxRunningChildren' | 'maxTasksPerRun' | 'maxDepth' | 'awaitTimeoutSeconds' | 'retentionDays' | 'maxRunTokens' | 'replyDeadlineSeconds';

/** Fields shown in seconds and stored in milliseconds. */
const SECONDS_FIELDS: Record<string, NumberField> = { awaitTimeoutMs: 'awaitTimeoutSeconds', replyDeadlineMs: 'replyDeadlineSeconds' };

/** Run-wide defaults: the root profile, running children, task cap, delegation depth, await timeout, retention, token limit, reply deadline. */
export function DefaultsSection({ state }: { state: OptionsState }) {
  const settings = state.settings.value;
  if (!settings) return null;
  return <DefaultsForm key={JSON.stringify(settings.defaults)} state={state} defaults={settings.defaults} />;
}

function DefaultsForm({ state, defaults }: { state: OptionsState; defaults: SettingsDefaults }) {
  const [draft, setDraft] = useState({
    rootProfileId: defaults.rootProfileId,
    maxRunningChildren: String(defaults.maxRunningChildren),
    maxTasksPerRun: String(defaults.maxTasksPerRun),
    maxDepth: String(defaults.maxDepth),
    awaitTimeoutSeconds: String(defaults.awaitTimeoutMs / 1_000),
    retentionDays: String(defaults.retentionDays),
    maxRunTokens: defaults.maxRunTokens === undefined ? '' : String(defaults.maxRunTokens),
    replyDeadlineSeconds: String(defaults.replyDeadlineMs / 1_000),
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const profiles = resolveProfiles(state.settings.value ?? { profiles: [] });

  async function save() {
    const settings = state.settings.value;
    if (!settings) return;
    const input = {
      rootProfileId: draft.rootProfileId,
      maxRunningChildren: Number(draft.maxRunningChildren),
      maxTasksPerRun: Number(draft.maxTasksPerRun),
      maxDepth: Number(draft.maxDepth),
      awaitTimeoutMs: Math.round(Number(draft.awaitTimeoutSeconds) * 1_000),
      retentionDays: Number(draft.retentionDays),
      // Empty: no token limit.
      ...(draft.maxRunTokens.trim() === '' ? {} : { maxRunTokens: Number(draft.maxRunTokens) }),
      replyDeadlineMs: Math.round(Number(draft.replyDeadlineSeconds) * 1_000),
    };
    const parsed = defaultsSchema.safeParse(input);
    if (!parsed.success) {
      const issues = issuesFromZod(parsed.error.issues, { input, schema: defaultsSchema });
      setErrors(issuesByPath(issues.map((issue) => ({ ...issue, path: SECONDS_FIELDS[issue.path] ?? issue.path }))));
      return;
    }
    setErrors({});
    await state.saveSettings({ ...settings, defaults: parsed.data }, t('options_saved'));
  }

  const numberField = (name: NumberField, label: string, hint?: string) => (
    <Field id={`defaults-${name}`} label={label} error={errors[name]} hint={hint}>
      <input type="number" value={draft[name]} onInput={(event) => setDraft({ ...draft, [name]: event.currentTarget.value })} {...describedBy(`defaults-${name}`, errors[name], hint !== undefined)} />
    </Field>
  );

  return (
    <section id="defaults" class="options-section" aria-labelledby="defaults-title">
      <h2 id="defaults-title">{t('options_defaults')}</h2>
      <form class="card" onSubmit={(event) => { event.preventDefault(); void save(); }}>
        <div class="form-grid">
          <Field id="defaults-rootProfileId" label={t('options_defaults_root_profile')} error={errors.rootProfileId}>
            <select value={draft.rootProfileId} onChange={(event) => setDraft({ ...draft, rootProfileId: event.currentTarget.value })} {...describedBy('defaults-rootProfileId', errors.rootProfileId)}>
              {profiles.map((profile) => <option key={profile.id} value={profile.id}>{profile.name}</option>)}
            </select>
          </Field>
          {numberField('maxRunningChildren', t('options_defaults_running_children'), t('options_defaults_running_children_hint'))}
          {numberField('maxTasksPerRun', t('options_defaults_task_cap'))}
          {numberField('maxDepth', t('options_defaults_max_depth'))}
          {numberField('awaitTimeoutSeconds', t('options_defaults_await_timeout'))}
          {numberField('retentionDays', t('options_defaults_retention'))}
          {numberField('maxRunTokens', t('options_defaults_max_run_tokens'))}
          {numberField('replyDeadlineSeconds', t('options_defaults_reply_deadline'))}
        </div>
        <div class="button-row">
          <button type="submit" class="primary">{t('options_save')}</button>
        </div>
      </form>
    </section>
  );
}
