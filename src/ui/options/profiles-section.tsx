import { useState } from 'preact/hooks';
import { builtInProfileIds, resolveProfiles } from '../../profiles/built-in-profiles';
import { profileSchema, type AgentProfile } from '../../settings/schema';
import { t } from '../ui-text';
import { AgentFilesCard } from './agent-files-card';
import type { OptionsState } from './options-state';
import { ProfileForm } from './profile-form';
import { ProfileRow } from './profile-row';

/** `base` if no profile has it, else `<base>-2`, `<base>-3`, ... */
function freeId(wanted: string, taken: ReadonlySet<string>): string {
  const base = wanted.slice(0, 60);
  if (!taken.has(base)) return base;
  let counter = 2;
  while (taken.has(`${base}-${counter}`)) counter += 1;
  return `${base}-${counter}`;
}

const blankProfile = (): AgentProfile =>
  profileSchema.parse({ id: 'new-agent', name: 'New agent', description: 'What this agent is good for, written for the agent that delegates to it.', systemPrompt: '' });

/** The agents: built-ins (view, duplicate) and custom ones (create, edit, delete). */
export function ProfilesSection({ state }: { state: OptionsState }) {
  const [draft, setDraft] = useState<AgentProfile | undefined>(undefined);
  const settings = state.settings.value;
  if (!settings) return null;
  const profiles = resolveProfiles(settings);
  const stored = new Set(settings.profiles.map((profile) => profile.id));
  const taken = new Set(profiles.map((profile) => profile.id));
  return (
    <section id="profiles" class="options-section" aria-labelledby="profiles-title">
      <h2 id="profiles-title">{t('options_profiles')}</h2>
      <p class="muted">{t('options_profiles_intro')}</p>
      <ul class="profile-list">
        {profiles.map((profile) => (
          <ProfileRow
            key={profile.id}
            state={state}
            profile={profile}
            isBuiltIn={builtInProfileIds.includes(profile.id) && !stored.has(profile.id)}
            onDuplicate={(source) => setDraft({ ...structuredClone(source), id: freeId(`${source.id}-copy`, taken), name: `${source.name} (${t('options_profile_copy')})` })}
          />
        ))}
      </ul>
      {draft ? (
        <div class="card">
          <h3>{t('options_profile_new')}</h3>
          <ProfileForm key={draft.id} state={state} profile={draft} readOnly={false} storedId={undefined} onDone={() => setDraft(undefined)} />
        </div>
      ) : (
        <button type="button" onClick={() => setDraft({ ...blankProfile(), id: freeId('new-agent', taken) })}>
          {t('options_profile_create')}
        </button>
      )}
      <AgentFilesCard state={state} />
    </section>
  );
}
