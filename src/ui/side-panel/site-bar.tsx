import { browser } from 'wxt/browser';
import { t } from '../ui-text';
import type { SidePanelState } from './side-panel-state';
import { SwitchControl } from './switch-control';

/** Top of the panel: the current site and its switch, the adapter, the global switch, settings. */
export function SiteBar({ state, openOptions = () => void browser.runtime.openOptionsPage() }: { state: SidePanelState; openOptions?: () => void }) {
  const settings = state.settings.value;
  const origin = state.origin.value;
  const site = settings?.sites.find((entry) => entry.origin === origin);
  const globallyOn = settings?.enabled ?? true;
  const adapterInUse = site?.adapter === 'auto' || !site ? (state.run.value?.adapter ?? 'auto') : site.adapter;

  function switchSite(enabled: boolean) {
    if (!origin) return;
    // Called straight from the click so the browser still sees a user gesture for the permission prompt.
    state.settingsAccess.switchSite(origin, enabled).then(
      (outcome) => {
        state.notice.value = outcome.ok ? undefined : outcome.message;
      },
      (error: unknown) => (state.notice.value = t('sidepanel_site_switch_failed', error instanceof Error ? error.message : String(error))),
    );
  }

  return (
    <header class="site-bar">
      <div class="site-bar-row">
        <h1 class="brand">{t('sidepanel_title')}</h1>
        <SwitchControl
          label={t('sidepanel_global_switch')}
          checked={globallyOn}
          onChange={(enabled) => void state.settingsAccess.setGlobalEnabled(enabled).catch((error: unknown) => (state.notice.value = String(error)))}
        />
        <button type="button" class="small-button" onClick={openOptions}>
          {t('sidepanel_open_options')}
        </button>
      </div>
      {!globallyOn && <p class="notice">{t('sidepanel_global_off_notice')}</p>}
      <div class="site-bar-row">
        {origin ? (
          <>
            <span class="site-origin" title={origin}>{origin}</span>
            <SwitchControl label={t('sidepanel_site_switch')} checked={site?.enabled ?? false} disabled={!globallyOn} onChange={switchSite} />
            <span class="muted">{t('sidepanel_adapter', adapterInUse)}</span>
          </>
        ) : (
          <span class="muted">{t('sidepanel_site_unknown')}</span>
        )}
      </div>
      {state.notice.value && (
        <p class="notice" role="alert">
          {state.notice.value}
        </p>
      )}
    </header>
  );
}
