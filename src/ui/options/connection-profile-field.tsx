import { useState } from 'preact/hooks';
import type { ConnectionProfileSummaryMessage } from '../../messaging/connection-profile-messages';
import type { Settings } from '../../settings/schema';
import { t, type UiMessageKey } from '../ui-text';
import { describedBy, Field } from './field';
import { readPageConnectionProfiles, type PageConnectionProfiles } from './page-connection-profiles';

export interface ConnectionProfileFieldProps {
  id: string;
  value: string;
  error?: string;
  settings: Settings;
  onChange: (profileName: string) => void;
}

const REFUSAL_TEXT: Record<NonNullable<ConnectionProfileSummaryMessage['refusal']>, UiMessageKey> = {
  'connection-manager-unavailable': 'options_connection_profile_refusal_no_manager',
  'profile-missing': 'options_connection_profile_refusal_no_manager',
  'profile-not-chat-completion': 'options_connection_profile_refusal_text_completion',
  'profile-source-unsupported': 'options_connection_profile_refusal_source',
  'profile-proxy-preset': 'options_connection_profile_refusal_proxy',
  'profile-preset-missing': 'options_connection_profile_refusal_preset',
};

/**
 * The `hostProfile` binding's field: a SillyTavern connection profile by name, typed or picked from the
 * profiles (and their models) of the open SillyTavern page, read through Retinue's bridge when asked.
 */
export function ConnectionProfileField({ id, value, error, settings, onChange }: ConnectionProfileFieldProps) {
  const [listing, setListing] = useState<PageConnectionProfiles | 'reading' | undefined>();
  const profiles = typeof listing === 'object' && listing.kind === 'profiles' ? listing.profiles : [];

  async function read() {
    setListing('reading');
    setListing(await readPageConnectionProfiles(settings));
  }

  return (
    <div class="connection-profile-field">
      <Field id={id} label={t('options_profile_connection_profile')} error={error} hint={t('options_profile_connection_profile_hint')}>
        <input type="text" list={`${id}-names`} value={value} onInput={(event) => onChange(event.currentTarget.value)} {...describedBy(id, error, true)} />
        <datalist id={`${id}-names`}>
          {profiles.filter((profile) => !profile.refusal).map((profile) => <option key={profile.name} value={profile.name} />)}
        </datalist>
      </Field>
      <button type="button" onClick={() => void read()} disabled={listing === 'reading'}>
        {t('options_connection_profiles_read')}
      </button>
      {typeof listing === 'object' && (
        <div class="connection-profile-listing" role="status">
          {listing.kind === 'no-page' && <p>{t('options_connection_profiles_no_page')}</p>}
          {listing.kind === 'no-connection-manager' && <p>{t('options_connection_profiles_no_manager', listing.origin)}</p>}
          {listing.kind === 'profiles' && listing.profiles.length === 0 && <p>{t('options_connection_profiles_none', listing.origin)}</p>}
          {listing.kind === 'profiles' && listing.profiles.length > 0 && (
            <>
              <p>{t('options_connection_profiles_of', listing.origin)}</p>
              <ul class="connection-profiles" aria-label={t('options_connection_profiles_of', listing.origin)}>
                {listing.profiles.map((profile) => (
                  <li key={profile.name}>
                    <button type="button" disabled={profile.refusal !== undefined} aria-pressed={profile.name === value} onClick={() => onChange(profile.name)}>
                      {profile.name}
                    </button>{' '}
                    <span class="connection-profile-model">{[profile.model, profile.source].filter(Boolean).join(' · ')}</span>
                    {profile.refusal && <span class="field-hint"> — {t(REFUSAL_TEXT[profile.refusal], profile.source ?? '')}</span>}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </div>
  );
}
