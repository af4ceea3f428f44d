import { useState } from 'preact/hooks';
import { exportProfile } from '../../settings/import-export';
import type { AgentProfile } from '../../settings/schema';
import { t } from '../ui-text';
import type { OptionsState } from './options-state';
import { ProfileForm } from './profile-form';

export interface ProfileRowProps {
  state: OptionsState;
  profile: AgentProfile;
  /** A built-in that the document does not override: view and duplicate only. */
  isBuiltIn: boolean;
  onDuplicate(profile: AgentProfile): void;
}

/** Offers the profile as a Markdown agent file; the YAML writer loads only when asked for. */
async function exportMarkdown(state: OptionsState, profile: AgentProfile): Promise<void> {
  const { exportAgentMarkdown } = await import('../../settings/agent-markdown');
  state.dependencies.download(`${profile.id}.md`, exportAgentMarkdown(profile));
}

/** One agent profile in the list: opens to its form; duplicate, export, delete. */
export function ProfileRow({ state, profile, isBuiltIn, onDuplicate }: ProfileRowProps) {
  const [open, setOpen] = useState(false);
  const detailsId = `profile-details-${profile.id}`;
  async function remove() {
    const settings = state.settings.value;
    if (!settings) return;
    await state.saveSettings({ ...settings, profiles: settings.profiles.filter((entry) => entry.id !== profile.id) }, t('options_deleted'));
  }
  return (
    <li class="card profile-row" data-profile-id={profile.id}>
      <div class="profile-head">
        <button type="button" class="profile-toggle" aria-expanded={open} aria-controls={detailsId} onClick={() => setOpen(!open)}>
          <span aria-hidden="true">{open ? '▾' : '▸'}</span> <strong>{profile.name}</strong> <code>{profile.id}</code>
        </button>
        <span class="tag">{isBuiltIn ? t('options_profile_built_in') : t('options_profile_custom')}</span>
        <button type="button" class="small-button" onClick={() => onDuplicate(profile)}>{t('options_profile_duplicate')}</button>
        <button type="button" class="small-button" onClick={() => state.dependencies.download(`retinue-profile-${profile.id}.json`, exportProfile(profile))}>
          {t('options_export')}
        </button>
        <button type="button" class="small-button" onClick={() => void exportMarkdown(state, profile)}>
          {t('options_profile_export_markdown')}
        </button>
        {!isBuiltIn && (
          <button type="button" class="small-button danger" aria-label={t('options_profile_delete_label', profile.name)} onClick={() => void remove()}>
            {t('options_delete')}
          </button>
        )}
      </div>
      <p class="muted profile-description">{profile.description}</p>
      {open && (
        <div id={detailsId}>
          <ProfileForm state={state} profile={profile} readOnly={isBuiltIn} storedId={isBuiltIn ? undefined : profile.id} onDone={() => setOpen(false)} />
        </div>
      )}
    </li>
  );
}
