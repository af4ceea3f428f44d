import type { HostNotice } from '../hosts/host-adapter';
import type { ConnectionLendingGate } from '../model/model-resolver';
import type { SiteLending } from '../settings/connection-lending';
import type { KeyedSpendLedger } from './keyed-spend-ledger';

/** The code of the side panel notice that asks to lend a connection; the connection's id follows it. */
export const CONSENT_NOTICE_PREFIX = 'connection-consent:';

/** The connection id a consent notice asks about, or undefined for any other notice. */
export function connectionIdOfConsentNotice(code: string): string | undefined {
  return code.startsWith(CONSENT_NOTICE_PREFIX) ? code.slice(CONSENT_NOTICE_PREFIX.length) || undefined : undefined;
}

export interface LendingGateOptions {
  /** The site's lending state, read when its run began. */
  lending: SiteLending;
  /** Shows a notice in the side panel for this site. */
  recordNotice(notice: HostNotice): void;
  /** The site's spending today, shared with every other run of this background (and stored by it). */
  ledger: KeyedSpendLedger;
}

/**
 * One run's gate on its site's keyed connections: an agent bound to a connection the user has not
 * lent to this site, or bound to one while the site's day's budget is spent, runs on the page's model,
 * and the side panel says why (asking, for a connection not yet lent). Every call is counted in the
 * background's one ledger, so runs of the site at the same time share its day's budget.
 */
export function createLendingGate(options: LendingGateOptions): ConnectionLendingGate {
  return {
    refusal(connection) {
      if (!options.lending.mayUse(connection.id)) return 'not-allowed';
      return options.ledger.isSpent(options.lending) ? 'budget-spent' : undefined;
    },
    onFallback(profile, connection, refusal) {
      const name = connection.label.trim() || connection.id;
      options.recordNotice(
        refusal === 'not-allowed'
          ? { code: `${CONSENT_NOTICE_PREFIX}${connection.id}`, messageKey: 'page_notice_connection_consent', substitutions: [profile.name, name] }
          : { code: 'keyed-budget-spent', messageKey: 'page_notice_keyed_budget_spent', substitutions: [profile.name, String(options.lending.budget)] },
      );
    },
    reserveCall: () => options.ledger.reserve(options.lending),
  };
}
