import type { HostNotice } from '../hosts/host-adapter';
import type { HostAdapterId } from '../hosts/chat-turn-request';
import type { PageRelayedFetch } from '../hosts/page-relayed-fetch';
import type { PromptSnapshot } from '../hosts/prompt-snapshot';
import { connectionProfileTarget } from '../hosts/sillytavern/connection-profile-target';
import { sourceProtocolFor } from '../hosts/sillytavern/source-protocols';
import { createConcurrencyLimiter, type ConcurrencyLimiter } from '../model/concurrency-limiter';
import { CONNECTIONS_PER_HOST } from '../model/connections-per-host';
import type { ModelClientOptions } from '../model/create-model-client';
import { createModelResolver } from '../model/model-resolver';
import { readSiteLending, type SiteLending } from '../settings/connection-lending';
import type { Settings } from '../settings/schema';
import { findSite } from '../settings/site-settings';
import { createLendingGate } from './connection-lending-gate';
import { sharedKeyedSpendLedger, type KeyedSpendLedger } from './keyed-spend-ledger';

/** What this site may use of the keyed connections today; unreadable, it may use none (the page's model serves). */
export async function lendingOf(site: string): Promise<SiteLending> {
  return readSiteLending(site).catch((error: unknown) => {
    console.error('Retinue: the connections lent to this site could not be read.', error);
    return { origin: site, mayUse: () => false, spentToday: 0, budget: 0 };
  });
}

export interface RunModelResolverOptions {
  /** The page's exact origin: its own model is served through it. */
  origin: string;
  settings: Settings;
  adapter: HostAdapterId;
  snapshot: PromptSnapshot;
  /** Calls through the page (its endpoint and headers never leave it). */
  pageFetch: PageRelayedFetch;
  lending: SiteLending;
  recordNotice: (origin: string, notice: HostNotice) => void;
  clientOptions?: Omit<ModelClientOptions, 'limiter'>;
  connectionLimiters: Map<string, ConcurrencyLimiter>;
  keyedSpend?: KeyedSpendLedger;
}

/**
 * Calls through one page at once, at most: the connections a browser opens to one host over HTTP/1.1
 * (Chromium and Firefox alike). Past that a call waited in the browser's queue, where a helper's clock
 * runs and can time it out before its request is even sent (SillyTavern check 7: the root's call and
 * six helpers', the sixth helper's waited about 270 ms for a connection); now it waits in Retinue's
 * queue, where the clock stands still. Five would leave the page a connection of its own, but cost
 * six helpers a call's time every round (Chromium bench: 0.70 of ideal against 0.77), and a page
 * waiting on its generation has no other request open. The root's call, which the reply waits on, goes
 * ahead of helpers' calls waiting (`ModelCallRequest.urgent`).
 */
export const PAGE_CALLS_AT_ONCE = CONNECTIONS_PER_HOST;

/**
 * The models a run's agents call: the page's own (through the page), a SillyTavern connection
 * profile (through the page too), or a keyed connection the user lent this site, within the day's
 * budget. Every call through the page, whatever its model or profile, shares one queue.
 */
export function runModelResolver(options: RunModelResolverOptions) {
  const { origin, settings, adapter, snapshot, pageFetch } = options;
  // Claude and Google sources answer in their own shapes: calls through them go whole, read by their module.
  const wholeReply = sourceProtocolFor(adapter, snapshot)?.wholeReply;
  const toolProtocol = findSite(settings, origin)?.toolProtocol ?? 'auto';
  const maxConcurrency = Math.min(settings.defaults.maxRunningChildren + 1, PAGE_CALLS_AT_ONCE);
  // A keyed connection's clients keep their own limiter (connectionLimiters): this one is the page's.
  const throughThePage = createConcurrencyLimiter(maxConcurrency);
  return createModelResolver({
    connections: settings.connections,
    hostProfile: (profileName) => connectionProfileTarget({ origin, profileName, pageFetch, maxConcurrency, toolProtocol }),
    host: {
      label: "the page's own model",
      pageModel: typeof snapshot.model === 'string' ? snapshot.model : '',
      baseURL: `${origin}/`,
      authAdvice: "check the API key and model set in the page itself (Retinue only reuses them), then send your message again",
      // The SDK's own headers never leave the background: the page hook sends the page's captured ones.
      apiKey: 'host-binding-sends-no-key',
      model: typeof snapshot.model === 'string' ? snapshot.model : '',
      fetch: pageFetch.fetch,
      maxConcurrency,
      toolProtocol,
      ...(wholeReply ? { wholeReply } : {}),
    },
    ...(options.clientOptions ? { clientOptions: options.clientOptions } : {}),
    pageLimiter: throughThePage,
    connectionLimiters: options.connectionLimiters,
    // A keyed connection serves this site only when the user lent it here, within the day's budget.
    lending: createLendingGate({
      lending: options.lending,
      recordNotice: (notice) => options.recordNotice(origin, notice),
      ledger: options.keyedSpend ?? sharedKeyedSpendLedger(),
    }),
  });
}
