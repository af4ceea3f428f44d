import { t } from '../ui-text';

/** What a new user sees before the first run: how to get one (the first step marked once done). */
export function EmptyState({ siteIsOn }: { siteIsOn: boolean }) {
  return (
    <section class="empty-state" aria-labelledby="empty-title">
      <h2 id="empty-title">{t('sidepanel_empty_title')}</h2>
      <ol>
        <li class={siteIsOn ? 'step-done' : undefined}>
          {t('sidepanel_empty_step_switch')} {siteIsOn && <span class="step-done-mark">✓ {t('sidepanel_empty_step_done')}</span>}
        </li>
        <li>{t('sidepanel_empty_step_chat')}</li>
        <li>{t('sidepanel_empty_step_watch')}</li>
      </ol>
    </section>
  );
}
