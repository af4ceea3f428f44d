import { useState } from 'preact/hooks';
import { replyDeadlineMsSchema, type SiteSettings } from '../../settings/schema';
import { t } from '../ui-text';

/** A site's reply deadline in seconds; empty means the default, 0 turns it off for this site. */
export function SiteReplyDeadline({ site, onChange }: { site: SiteSettings; onChange: (replyDeadlineMs: number | undefined) => void }) {
  const [text, setText] = useState(site.replyDeadlineMs === undefined ? '' : String(site.replyDeadlineMs / 1_000));
  const [invalid, setInvalid] = useState(false);
  const errorId = `site-reply-deadline-error-${site.origin.replace(/[^a-z0-9]/gi, '-')}`;

  function commit() {
    if (text.trim() === '') {
      setInvalid(false);
      onChange(undefined);
      return;
    }
    const parsed = replyDeadlineMsSchema.safeParse(Math.round(Number(text) * 1_000));
    setInvalid(!parsed.success);
    if (parsed.success) onChange(parsed.data);
  }

  return (
    <>
      <input
        type="number"
        min="0"
        max="600"
        step="any"
        class="narrow-number"
        aria-label={t('options_site_reply_deadline_label', site.origin)}
        value={text}
        onInput={(event) => setText(event.currentTarget.value)}
        onChange={commit}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={invalid ? errorId : undefined}
      />
      {invalid && <p id={errorId} class="field-error" role="alert">{t('options_site_reply_deadline_invalid')}</p>}
    </>
  );
}
