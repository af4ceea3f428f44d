import { useEffect, useState } from 'preact/hooks';
import { decideConnectionLoan, isLoopbackOrigin, listConnectionLoans } from '../../settings/connection-lending';
import type { ConnectionLoan } from '../../settings/private-database';
import { t } from '../ui-text';
import type { OptionsState } from './options-state';

/** One site allowed to use one keyed connection. */
interface Lent {
  origin: string;
  connectionId: string;
  label: string;
}

/**
 * Which site may use which connection that carries your API key: those you allowed in the side panel,
 * and, for pages on this computer you switched on, every keyed connection you have not revoked there.
 */
function lentConnections(loans: readonly ConnectionLoan[], state: OptionsState): Lent[] {
  const settings = state.settings.value;
  if (!settings) return [];
  const keyed = settings.connections.filter((connection) => connection.apiKey);
  const decided = new Map(loans.map((loan) => [`${loan.origin} ${loan.connectionId}`, loan.decision]));
  const origins = [...new Set([...loans.map((loan) => loan.origin), ...settings.sites.map((site) => site.origin)])];
  return origins.flatMap((origin) =>
    keyed.flatMap((connection) => {
      const decision = decided.get(`${origin} ${connection.id}`) ?? (isLoopbackOrigin(origin) && settings.sites.some((site) => site.origin === origin) ? 'allowed' : undefined);
      return decision === 'allowed' ? [{ origin, connectionId: connection.id, label: connection.label.trim() || connection.id }] : [];
    }),
  );
}

/** The options page's list of keyed connections lent to sites, each with Revoke. */
export function ConnectionLoansSection({ state }: { state: OptionsState }) {
  const [loans, setLoans] = useState<ConnectionLoan[] | undefined>(undefined);
  const reload = () => void listConnectionLoans().then(setLoans).catch(() => setLoans([]));
  useEffect(reload, []);
  const lent = loans ? lentConnections(loans, state) : [];
  const revoke = async (entry: Lent) => {
    await decideConnectionLoan({ origin: entry.origin, connectionId: entry.connectionId, decision: 'refused' });
    reload();
  };
  return (
    <section id="connection-loans" class="options-section" aria-labelledby="connection-loans-title">
      <h2 id="connection-loans-title">{t('options_loans')}</h2>
      <p class="muted">{t('options_loans_intro')}</p>
      {loans && lent.length === 0 && <p class="muted">{t('options_loans_empty')}</p>}
      <ul aria-label={t('options_loans_list_label')} class="loan-list">
        {lent.map((entry) => (
          <li key={`${entry.origin} ${entry.connectionId}`}>
            <code>{entry.origin}</code>
            <span>{entry.label}</span>
            <button type="button" class="small-button" aria-label={t('options_loan_revoke_label', entry.label, entry.origin)} onClick={() => void revoke(entry)}>
              {t('options_loan_revoke')}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
