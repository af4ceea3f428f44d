import { useEffect, useState } from 'preact/hooks';
import { readSiteLending } from '../../settings/connection-lending';
import { t } from '../ui-text';

/** How often the line reads the day's spend again while the panel is open. */
const REFRESH_MS = 5_000;

/**
 * What connections with the user's API keys spent for this site today, against the site's daily
 * budget; nothing when they spent nothing.
 */
export function KeyedSpendLine({ origin }: { origin: string | undefined }) {
  const [spend, setSpend] = useState<{ spentToday: number; budget: number } | undefined>(undefined);
  useEffect(() => {
    if (!origin) return undefined;
    let active = true;
    const read = () =>
      void readSiteLending(origin)
        .then((lending) => active && setSpend({ spentToday: lending.spentToday, budget: lending.budget }))
        .catch(() => undefined);
    read();
    const timer = setInterval(read, REFRESH_MS);
    return () => {
      active = false;
      clearInterval(timer);
    };
  }, [origin]);
  if (!origin || !spend || spend.spentToday === 0) return null;
  const format = (value: number) => value.toLocaleString('en-US');
  return <p class="muted keyed-spend">{t('sidepanel_keyed_spend_today', format(spend.spentToday), format(spend.budget))}</p>;
}
