import { t } from '../ui-text';
import { ConnectionLoansSection } from './connection-loans-section';
import { ConnectionsSection } from './connections-section';
import { DefaultsSection } from './defaults-section';
import { ImportExportSection } from './import-export-section';
import type { OptionsState } from './options-state';
import { ProfilesSection } from './profiles-section';
import { SitesSection } from './sites-section';

/** The options page: connections, agent profiles, sites, defaults, import and export. */
export function OptionsApp({ state }: { state: OptionsState }) {
  const status = state.status.value;
  return (
    <div class="options-page">
      <header class="options-header">
        <h1>{t('options_title')}</h1>
        <nav aria-label={t('options_sections')}>
          <a href="#connections">{t('options_connections')}</a>
          <a href="#profiles">{t('options_profiles')}</a>
          <a href="#sites">{t('options_sites')}</a>
          <a href="#defaults">{t('options_defaults')}</a>
          <a href="#import-export">{t('options_import_export')}</a>
        </nav>
      </header>
      <div class="status-line" role="status" aria-live="polite">
        {status && <p class={status.kind === 'ok' ? 'status-ok' : 'error-text status-error'}>{status.text}</p>}
      </div>
      {state.loadErrors.value.length > 0 && (
        <div class="notice" role="alert">
          <p>{t('options_load_errors')}</p>
          <ul>{state.loadErrors.value.map((issue, index) => <li key={index}>{issue.message}</li>)}</ul>
        </div>
      )}
      {!state.settings.value ? (
        <p class="muted">{t('options_loading')}</p>
      ) : (
        <main>
          <ConnectionsSection state={state} />
          <ProfilesSection state={state} />
          <SitesSection state={state} />
          <ConnectionLoansSection state={state} />
          <DefaultsSection state={state} />
          <ImportExportSection state={state} />
        </main>
      )}
    </div>
  );
}
