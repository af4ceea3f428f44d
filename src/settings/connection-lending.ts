import { keptPrivateDatabase, openPrivateDatabase, connectionLoanSchema, keyedSpendSchema, type ConnectionLoan } from './private-database';

/**
 * Keyed connections are the user's to lend (DESIGN.md §10): a connection that carries an API key
 * serves a site only after the user allowed it there, and only within the site's daily token budget.
 * Both are kept in the extension's private database, so a worker restart forgets neither.
 */

/** Tokens keyed connections may spend for one site per day. */
export const KEYED_DAILY_TOKEN_BUDGET = 200_000;

/** The browser's local day of a time, `YYYY-MM-DD`: the budget starts again at local midnight. */
export function dayOf(time: number): string {
  const date = new Date(time);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A page on the user's own machine: switched on by the user, it may use keyed connections until they say no. */
export function isLoopbackOrigin(origin: string): boolean {
  try {
    const { hostname } = new URL(origin);
    return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]';
  } catch {
    return false;
  }
}

/** What a site may use today: the keyed connections lent to it and the tokens they spent for it. */
export interface SiteLending {
  origin: string;
  /** Connection ids the user allowed for this site (loopback sites: every one not refused). */
  mayUse(connectionId: string): boolean;
  spentToday: number;
  budget: number;
}

/** Reads the lending state of one site for the day of `now`. */
export async function readSiteLending(origin: string, now: number = Date.now(), databaseName?: string): Promise<SiteLending> {
  // Read on every chat turn: the default database stays open (keptPrivateDatabase); a named one is opened for this read.
  const database = databaseName === undefined ? await keptPrivateDatabase() : await openPrivateDatabase(databaseName);
  try {
    // Both reads side by side: each is a round trip to the browser's storage, before every turn's first model call.
    const [loanRecords, spendRecord] = await Promise.all([database.getAll('connectionLoans'), database.get('keyedSpend', [origin, dayOf(now)])]);
    const loans = loanRecords.flatMap((record) => {
      const parsed = connectionLoanSchema.safeParse(record);
      return parsed.success && parsed.data.origin === origin ? [parsed.data] : [];
    });
    const spend = keyedSpendSchema.safeParse(spendRecord);
    const decisions = new Map(loans.map((loan) => [loan.connectionId, loan.decision]));
    const loopback = isLoopbackOrigin(origin);
    return {
      origin,
      mayUse: (connectionId) => decisions.get(connectionId) === 'allowed' || (loopback && decisions.get(connectionId) === undefined),
      spentToday: spend.success ? spend.data.tokens : 0,
      budget: KEYED_DAILY_TOKEN_BUDGET,
    };
  } finally {
    if (databaseName !== undefined) database.close();
  }
}

/** Records the user's answer for one site and one connection (the side panel's Allow, the options page's Revoke). */
export async function decideConnectionLoan(loan: Omit<ConnectionLoan, 'decidedAt'>, now: number = Date.now(), databaseName?: string): Promise<void> {
  const database = await openPrivateDatabase(databaseName);
  try {
    await database.put('connectionLoans', connectionLoanSchema.parse({ ...loan, decidedAt: now }));
  } finally {
    database.close();
  }
}

/** Every decision the user made, for the options page's list of what each site may use. */
export async function listConnectionLoans(databaseName?: string): Promise<ConnectionLoan[]> {
  const database = await openPrivateDatabase(databaseName);
  try {
    return (await database.getAll('connectionLoans')).flatMap((record) => {
      const parsed = connectionLoanSchema.safeParse(record);
      return parsed.success ? [parsed.data] : [];
    });
  } finally {
    database.close();
  }
}

/** Adds tokens a keyed connection spent for a site to that site's day; gives the day's new total. */
export async function addKeyedSpend(origin: string, tokens: number, now: number = Date.now(), databaseName?: string): Promise<number> {
  const database = await openPrivateDatabase(databaseName);
  try {
    const day = dayOf(now);
    const transaction = database.transaction('keyedSpend', 'readwrite');
    const stored = keyedSpendSchema.safeParse(await transaction.store.get([origin, day]));
    const total = (stored.success ? stored.data.tokens : 0) + Math.max(0, Math.round(tokens));
    await transaction.store.put({ origin, day, tokens: total });
    await transaction.done;
    return total;
  } finally {
    database.close();
  }
}
