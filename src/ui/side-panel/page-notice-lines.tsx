import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { connectionIdOfConsentNotice } from '../../background/connection-lending-gate';
import { dismissPageNotice, PAGE_NOTICES_KEY, parsePageNotices, type PageNotice } from '../../background/page-notices';
import { decideConnectionLoan } from '../../settings/connection-lending';
import { t } from '../ui-text';

/** At most this many notices of one site are shown at once (newest first). */
const SHOWN_NOTICES = 3;

/**
 * The notices the background keeps about pages (`storage.session`, written when a chat turn passed
 * by Retinue), live: read once, then followed with `storage.onChanged`.
 */
function usePageNotices(): PageNotice[] {
  const [notices, setNotices] = useState<PageNotice[]>([]);
  useEffect(() => {
    let active = true;
    // A change that lands before the first read answers is newer than that answer: the read is dropped.
    let changed = false;
    const listener = (changes: Record<string, { newValue?: unknown }>, areaName: string) => {
      if (areaName !== 'session' || !(PAGE_NOTICES_KEY in changes)) return;
      changed = true;
      setNotices(parsePageNotices(changes[PAGE_NOTICES_KEY]?.newValue));
    };
    browser.storage.onChanged.addListener(listener);
    // Where storage.session is missing (an old browser) the lookup throws: no notices, and the panel works.
    Promise.resolve()
      .then(() => browser.storage.session.get(PAGE_NOTICES_KEY))
      .then((stored) => active && !changed && setNotices(parsePageNotices(stored[PAGE_NOTICES_KEY])))
      .catch(() => undefined);
    return () => {
      active = false;
      browser.storage.onChanged.removeListener(listener);
    };
  }, []);
  return notices;
}

/**
 * Near the top of the panel: what Retinue has to say about the current site's recent chat turns
 * (e.g. a SillyTavern source it cannot speak, so the turn went to the page's model alone). Each
 * line can be dismissed.
 */
export function PageNoticeLines({ origin }: { origin: string | undefined }) {
  const notices = usePageNotices().filter((notice) => notice.origin === origin).slice(0, SHOWN_NOTICES);
  if (!origin || notices.length === 0) return null;
  return (
    <section class="page-notices" aria-label={t('sidepanel_page_notices_label')}>
      {notices.map((notice) => (
        <p class="notice page-notice" role="status" key={`${notice.code}:${notice.time}:${notice.substitutions.join()}`}>
          <span>{notice.message}</span>
          <AllowButton notice={notice} />
          <button type="button" class="small-button" aria-label={t('sidepanel_page_notice_dismiss_label')} onClick={() => void dismissPageNotice(notice).catch(() => undefined)}>
            {t('sidepanel_page_notice_dismiss')}
          </button>
        </p>
      ))}
    </section>
  );
}

/** On a notice that asks to lend a keyed connection: lends it to this site, then the question goes. */
function AllowButton({ notice }: { notice: PageNotice }) {
  const connectionId = connectionIdOfConsentNotice(notice.code);
  if (!connectionId) return null;
  const allow = async () => {
    await decideConnectionLoan({ origin: notice.origin, connectionId, decision: 'allowed' });
    await dismissPageNotice(notice);
  };
  return (
    <button type="button" class="small-button" onClick={() => void allow().catch((error: unknown) => console.error('Retinue: the connection could not be allowed.', error))}>
      {t('sidepanel_connection_allow')}
    </button>
  );
}
