import { addKeyedSpend, dayOf, type SiteLending } from '../settings/connection-lending';

/** One keyed call under way: `settle` with the tokens it used, or `cancel` when it failed. */
export interface KeyedSpendReservation {
  settle(tokens: number): void;
  cancel(): void;
}

/**
 * The keyed-connection spending of every site, shared by all runs of this background: a call is
 * checked and counted against the site's day in one synchronous step, so runs of one site working
 * at the same time together stay within its daily budget (to within one call), where each run
 * counting only its own spending from the day's total at its start let two runs spend it twice.
 */
export interface KeyedSpendLedger {
  /** Whether the site's day is spent (the resolver's question before it gives an agent a keyed connection). */
  isSpent(lending: SiteLending, now?: number): boolean;
  /**
   * Takes a place for one call of the site, or undefined when the day's budget is spent or the calls
   * already under way would spend it (then the call goes to the page's model).
   */
  reserve(lending: SiteLending, now?: number): KeyedSpendReservation | undefined;
}

/**
 * What a call is expected to cost before the site's first call of the day has settled: a large
 * chat's context and a reply. Only near the budget does it matter (calls under way then start one by one).
 */
export const EXPECTED_FIRST_CALL_TOKENS = 16_000;

interface SiteDay {
  day: string;
  /** Tokens settled today: what the store had when the site was first seen today, and every call since. */
  spent: number;
  /** Calls reserved and not settled yet. */
  inFlight: number;
  /** The largest call settled today: what a call under way is expected to cost (0: none yet). */
  largestCall: number;
}

export interface KeyedSpendLedgerOptions {
  /** Stores one call's tokens for the site's day; `addKeyedSpend` by default. */
  save?: (origin: string, tokens: number, now: number) => Promise<unknown>;
  now?: () => number;
}

/**
 * Creates the ledger. A call may start when the site's settled tokens, plus the expected cost of the
 * calls under way and its own, stay under the budget; the only call that may go past it is one
 * started with nothing else under way, so the day ends at most one call above its budget (when calls
 * grow, by their growth too). Each settled call is saved to the private database in order.
 *
 * @example
 * const ledger = createKeyedSpendLedger();
 * const place = ledger.reserve(lending);
 * if (place) place.settle((await client.call(request)).usage.totalTokens);
 */
export function createKeyedSpendLedger(options: KeyedSpendLedgerOptions = {}): KeyedSpendLedger {
  const save = options.save ?? ((origin, tokens, now) => addKeyedSpend(origin, tokens, now));
  const clock = options.now ?? Date.now;
  const sites = new Map<string, SiteDay>();
  let saving: Promise<unknown> = Promise.resolve();

  function siteDay(lending: SiteLending, now: number): SiteDay {
    const day = dayOf(now);
    let entry = sites.get(lending.origin);
    if (!entry || entry.day !== day) {
      entry = { day, spent: 0, inFlight: 0, largestCall: 0 };
      sites.set(lending.origin, entry);
    }
    // The store may know of spending this background has not seen (an earlier worker's).
    entry.spent = Math.max(entry.spent, lending.spentToday);
    return entry;
  }

  return {
    isSpent(lending, now = clock()) {
      return siteDay(lending, now).spent >= lending.budget;
    },
    reserve(lending, now = clock()) {
      const entry = siteDay(lending, now);
      if (entry.spent >= lending.budget) return undefined;
      const expected = entry.largestCall || EXPECTED_FIRST_CALL_TOKENS;
      if (entry.inFlight > 0 && entry.spent + (entry.inFlight + 1) * expected >= lending.budget) return undefined;
      entry.inFlight += 1;
      let open = true;
      const close = (): boolean => {
        if (!open) return false;
        open = false;
        entry.inFlight -= 1;
        return true;
      };
      return {
        settle(tokens) {
          if (!close()) return;
          const counted = Math.max(0, Math.round(tokens));
          entry.spent += counted;
          entry.largestCall = Math.max(entry.largestCall, counted);
          saving = saving
            .then(() => save(lending.origin, counted, now))
            .catch((error: unknown) => console.error('Retinue: the day’s token spend could not be stored.', error));
        },
        cancel() {
          close();
        },
      };
    },
  };
}

let shared: KeyedSpendLedger | undefined;

/** The one ledger of this background, for every run port. */
export function sharedKeyedSpendLedger(): KeyedSpendLedger {
  return (shared ??= createKeyedSpendLedger());
}
