import { useState } from 'preact/hooks';
import { resolveProfiles } from '../../profiles/built-in-profiles';
import { adapterIdSchema, toolProtocolSchema, type SiteSettings } from '../../settings/schema';
import { t } from '../ui-text';
import type { OptionsState } from './options-state';
import { SiteReplyDeadline } from './site-reply-deadline';

/** Sites Retinue knows: switch, adapter, root profile, tool protocol and reply deadline per site; add a site by its address. */
export function SitesSection({ state }: { state: OptionsState }) {
  const [newOrigin, setNewOrigin] = useState('');
  const [addError, setAddError] = useState<string | undefined>(undefined);
  const settings = state.settings.value;
  if (!settings) return null;
  const profiles = resolveProfiles(settings);

  function changeSite(origin: string, change: Partial<SiteSettings>) {
    const current = state.settings.value;
    if (!current) return;
    void state.saveSettings({ ...current, sites: current.sites.map((site) => (site.origin === origin ? { ...site, ...change } : site)) }, t('options_saved'));
  }
  function switchSite(origin: string, enabled: boolean) {
    // Straight from the click, so the permission prompt may open.
    state.dependencies.switchSite(origin, enabled).then(
      (outcome) => (state.status.value = outcome.ok ? { kind: 'ok', text: t('options_saved') } : { kind: 'error', text: outcome.message }),
      (error: unknown) => (state.status.value = { kind: 'error', text: error instanceof Error ? error.message : String(error) }),
    );
  }
  function addSite() {
    let origin: string;
    try {
      const url = new URL(newOrigin.trim());
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
      origin = url.origin;
    } catch {
      setAddError(t('options_site_origin_invalid'));
      return;
    }
    setAddError(undefined);
    setNewOrigin('');
    switchSite(origin, true);
  }
  function removeSite(origin: string) {
    const current = state.settings.value;
    if (current) void state.saveSettings({ ...current, sites: current.sites.filter((site) => site.origin !== origin) }, t('options_deleted'));
  }

  return (
    <section id="sites" class="options-section" aria-labelledby="sites-title">
      <h2 id="sites-title">{t('options_sites')}</h2>
      <label class="checkbox">
        <input type="checkbox" role="switch" checked={settings.enabled} onChange={(event) => void state.saveSettings({ ...settings, enabled: event.currentTarget.checked }, t('options_saved'))} />
        {t('options_global_switch')}
      </label>
      {settings.sites.length === 0 ? (
        <p class="muted">{t('options_sites_empty')}</p>
      ) : (
        <table class="sites-table">
          <thead>
            <tr>
              <th scope="col">{t('options_site_origin')}</th>
              <th scope="col">{t('options_site_enabled')}</th>
              <th scope="col">{t('options_site_adapter')}</th>
              <th scope="col">{t('options_site_root_profile')}</th>
              <th scope="col">{t('options_site_tool_protocol')}</th>
              <th scope="col">{t('options_site_reply_deadline')}</th>
              <th scope="col"><span class="visually-hidden">{t('options_delete')}</span></th>
            </tr>
          </thead>
          <tbody>
            {settings.sites.map((site) => (
              <tr key={site.origin}>
                <td><code>{site.origin}</code></td>
                <td>
                  <input type="checkbox" role="switch" aria-label={t('options_site_switch_label', site.origin)} checked={site.enabled} onChange={(event) => switchSite(site.origin, event.currentTarget.checked)} />
                </td>
                <td>
                  <select aria-label={t('options_site_adapter_label', site.origin)} value={site.adapter} onChange={(event) => changeSite(site.origin, { adapter: adapterIdSchema.parse(event.currentTarget.value) })}>
                    {adapterIdSchema.options.map((adapter) => <option key={adapter} value={adapter}>{adapter}</option>)}
                  </select>
                </td>
                <td>
                  <select aria-label={t('options_site_root_label', site.origin)} value={site.rootProfileId ?? ''} onChange={(event) => changeSite(site.origin, { rootProfileId: event.currentTarget.value || undefined })}>
                    <option value="">{t('options_site_root_default', settings.defaults.rootProfileId)}</option>
                    {profiles.map((profile) => <option key={profile.id} value={profile.id}>{profile.name}</option>)}
                  </select>
                </td>
                <td>
                  <select aria-label={t('options_site_tool_protocol_label', site.origin)} value={site.toolProtocol ?? 'auto'} onChange={(event) => changeSite(site.origin, { toolProtocol: toolProtocolSchema.parse(event.currentTarget.value) })}>
                    {toolProtocolSchema.options.map((protocol) => <option key={protocol} value={protocol}>{t(`options_tool_protocol_${protocol}`)}</option>)}
                  </select>
                </td>
                <td>
                  <SiteReplyDeadline site={site} onChange={(replyDeadlineMs) => changeSite(site.origin, { replyDeadlineMs })} />
                </td>
                <td>
                  <button type="button" class="small-button danger" aria-label={t('options_site_remove_label', site.origin)} onClick={() => removeSite(site.origin)}>{t('options_delete')}</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form class="inline-form" onSubmit={(event) => { event.preventDefault(); addSite(); }}>
        <label for="new-site-origin">{t('options_site_add')}</label>
        <input id="new-site-origin" type="url" placeholder="https://chat.example.com" value={newOrigin} onInput={(event) => setNewOrigin(event.currentTarget.value)} aria-invalid={addError ? true : undefined} aria-describedby={addError ? 'new-site-error' : undefined} />
        <button type="submit">{t('options_site_add_button')}</button>
        {addError && <p id="new-site-error" class="field-error" role="alert">{addError}</p>}
      </form>
    </section>
  );
}
