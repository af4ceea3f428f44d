import { useState } from 'preact/hooks';
import type { AgentProfile } from '../../settings/schema';
import { allowableToolNames, type AllowableToolName } from '../../settings/tool-names';
import { t } from '../ui-text';
import { ConnectionProfileField } from './connection-profile-field';
import { ProfileRunsField } from './profile-runs-field';
import { describedBy, Field, issuesByPath } from './field';
import type { OptionsState } from './options-state';
import { checkProfileDraft, draftFromProfile, withProfile, type ProfileDraft } from './profile-draft';
import { SamplingFields } from './sampling-fields';

export interface ProfileFormProps {
  state: OptionsState;
  profile: AgentProfile;
  /** Built-ins are shown read-only. */
  readOnly: boolean;
  /** The id stored in the document (undefined for a profile not saved yet). */
  storedId: string | undefined;
  onDone?: () => void;
}

type TextField = Exclude<keyof ProfileDraft, 'binding' | 'profileName' | 'sampling' | 'tools' | 'canDelegate' | 'callable' | 'allowNestedDelegation' | 'review' | 'runs'>;

/** Edits one agent profile; errors from the settings schema appear next to their fields. */
export function ProfileForm({ state, profile, readOnly, storedId, onDone }: ProfileFormProps) {
  const [draft, setDraft] = useState(() => draftFromProfile(profile));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const prefix = `profile-${storedId ?? 'new'}`;
  const connections = state.settings.value?.connections ?? [];

  function textInput(field: TextField, path: string, type = 'text', multiline = false) {
    const id = `${prefix}-${field}`;
    const aria = describedBy(id, errors[path]);
    const onInput = (event: Event) => setDraft({ ...draft, [field]: (event.currentTarget as HTMLInputElement).value });
    return multiline ? <textarea rows={field === 'systemPrompt' ? 8 : 3} value={draft[field]} onInput={onInput} {...aria} /> : <input type={type as 'text'} value={draft[field]} onInput={onInput} {...aria} />;
  }
  const field = (name: TextField, path: string, label: string, type = 'text', multiline = false, hint?: string) => (
    <Field id={`${prefix}-${name}`} label={label} error={errors[path]} hint={hint}>
      {textInput(name, path, type, multiline)}
    </Field>
  );
  const checkbox = (name: 'canDelegate' | 'callable' | 'allowNestedDelegation', label: string) => (
    <label class="checkbox">
      <input type="checkbox" checked={draft[name]} onChange={(event) => setDraft({ ...draft, [name]: event.currentTarget.checked })} />
      {label}
    </label>
  );
  function toggleTool(tool: AllowableToolName, on: boolean) {
    setDraft({ ...draft, tools: on ? allowableToolNames.filter((name) => name === tool || draft.tools.includes(name)) : draft.tools.filter((name) => name !== tool) });
  }

  async function save() {
    const settings = state.settings.value;
    if (!settings) return;
    const checked = checkProfileDraft(draft, settings);
    if (!checked.ok) {
      setErrors(issuesByPath(checked.errors));
      state.status.value = { kind: 'error', text: t('options_profile_invalid') };
      return;
    }
    setErrors({});
    if (await state.saveSettings(withProfile(settings, checked.profile, storedId), t('options_saved'))) onDone?.();
  }

  return (
    <form class="profile-form" aria-label={t('options_profile_form_label', profile.name)} onSubmit={(event) => { event.preventDefault(); void save(); }}>
      <fieldset disabled={readOnly}>
        <div class="form-grid">
          <Field id={`${prefix}-id`} label={t('options_profile_id')} error={errors.id}>
            <input type="text" value={draft.id} readOnly={storedId !== undefined} onInput={(event) => setDraft({ ...draft, id: event.currentTarget.value })} {...describedBy(`${prefix}-id`, errors.id)} />
          </Field>
          {field('name', 'name', t('options_profile_name'))}
        </div>
        {field('description', 'description', t('options_profile_description'), 'text', true, t('options_profile_description_hint'))}
        {field('systemPrompt', 'systemPrompt', t('options_profile_system_prompt'), 'text', true)}
        <fieldset class="group">
          <legend>{t('options_profile_model')}</legend>
          <div class="form-grid">
            <Field id={`${prefix}-binding`} label={t('options_profile_binding')} error={errors['model.binding']}>
              <select value={draft.binding} onChange={(event) => setDraft({ ...draft, binding: event.currentTarget.value as ProfileDraft['binding'] })} {...describedBy(`${prefix}-binding`, errors['model.binding'])}>
                <option value="host">{t('options_profile_binding_host')}</option>
                <option value="hostProfile">{t('options_profile_binding_host_profile')}</option>
                <option value="connection">{t('options_profile_binding_connection')}</option>
              </select>
            </Field>
            {draft.binding === 'connection' && (
              <Field id={`${prefix}-connectionId`} label={t('options_profile_connection')} error={errors['model.connectionId']}>
                <select value={draft.connectionId} onChange={(event) => setDraft({ ...draft, connectionId: event.currentTarget.value })} {...describedBy(`${prefix}-connectionId`, errors['model.connectionId'])}>
                  <option value="">{t('options_profile_choose_connection')}</option>
                  {connections.map((connection) => <option key={connection.id} value={connection.id}>{connection.label || connection.id}</option>)}
                </select>
              </Field>
            )}
            {draft.binding === 'hostProfile' && state.settings.value && (
              <ConnectionProfileField id={`${prefix}-profileName`} value={draft.profileName} error={errors['model.profileName']} settings={state.settings.value} onChange={(profileName) => setDraft({ ...draft, profileName })} />
            )}
            {draft.binding !== 'hostProfile' && field('model', 'model.model', t('options_profile_model_id'), 'text', false, t(draft.binding === 'host' ? 'options_profile_host_model_hint' : 'options_profile_model_id_hint'))}
          </div>
          <SamplingFields prefix={prefix} value={draft.sampling} errors={errors} settings={state.settings.value} onChange={(sampling) => setDraft({ ...draft, sampling })} />
        </fieldset>
        <fieldset class="group">
          <legend>{t('options_profile_tools')}</legend>
          <div class="tool-grid">
            {allowableToolNames.map((tool) => (
              <label class="checkbox" key={tool}>
                <input type="checkbox" checked={draft.tools.includes(tool)} onChange={(event) => toggleTool(tool, event.currentTarget.checked)} />
                <code>{tool}</code>
              </label>
            ))}
          </div>
          {errors['tools.allow'] && <p class="field-error" role="alert">{errors['tools.allow']}</p>}
        </fieldset>
        <fieldset class="group">
          <legend>{t('options_profile_delegation')}</legend>
          {checkbox('canDelegate', t('options_profile_can_delegate'))}
          {checkbox('callable', t('options_profile_callable'))}
          {checkbox('allowNestedDelegation', t('options_profile_nested'))}
          {field('allowedAgents', 'delegation.allowedAgents', t('options_profile_allowed_agents'), 'text', false, t('options_profile_allowed_agents_hint'))}
          {Object.entries(errors).filter(([path]) => path.startsWith('delegation.allowedAgents[')).map(([path, message]) => <p key={path} class="field-error" role="alert">{message}</p>)}
          <Field id={`${prefix}-review`} label={t('options_profile_review')} error={errors.review}>
            <select value={draft.review} onChange={(event) => setDraft({ ...draft, review: event.currentTarget.value as ProfileDraft['review'] })} {...describedBy(`${prefix}-review`, errors.review)}>
              <option value="none">{t('options_profile_review_none')}</option>
              <option value="ask">{t('options_profile_review_ask')}</option>
            </select>
          </Field>
          <ProfileRunsField id={`${prefix}-runs`} runs={draft.runs} error={errors.runs} onChange={(runs) => setDraft({ ...draft, runs })} />
        </fieldset>
        <fieldset class="group">
          <legend>{t('options_profile_budget')}</legend>
          <div class="form-grid">
            {field('maxRounds', 'budget.maxRounds', t('options_profile_max_rounds'), 'number')}
            {field('maxToolCalls', 'budget.maxToolCalls', t('options_profile_max_tool_calls'), 'number')}
            {field('timeoutSeconds', 'budget.timeoutSeconds', t('options_profile_timeout'), 'number')}
            {field('maxRunTokens', 'budget.maxRunTokens', t('options_profile_max_run_tokens'), 'number', false, t('options_profile_max_run_tokens_hint'))}
            {field('recentChatMessages', 'context.recentChatMessages', t('options_profile_recent_messages'), 'number')}
          </div>
        </fieldset>
      </fieldset>
      {!readOnly && (
        <div class="button-row">
          <button type="submit" class="primary">{t('options_save')}</button>
          {onDone && <button type="button" onClick={onDone}>{t('options_cancel')}</button>}
        </div>
      )}
    </form>
  );
}
