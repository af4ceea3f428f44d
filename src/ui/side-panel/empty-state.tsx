import { t } from '../ui-text';

/** What a new user sees before the first run: how to get one. */
export function EmptyState() {
  return (
    <section class="empty-state" aria-labelledby="empty-title">
      <h2 id="empty-title">{t('sidepanel_empty_title')}</h2>
      <ol>
        <li>{t('sidepanel_empty_step_switch')}</li>
        <li>{t('sidepanel_empty_step_chat')}</li>
        <li>{t('sidepanel_empty_step_watch')}</li>
      </ol>
    </section>
  );
}
