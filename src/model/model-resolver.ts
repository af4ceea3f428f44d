import { ConfigurationError } from '../errors';
import type { AgentProfile, Connection } from '../settings/schema';
import { createConcurrencyLimiter, type ConcurrencyLimiter } from './concurrency-limiter';
import { connectionCallsAtOnce } from './connections-per-host';
import { createModelClient, type ModelClientOptions } from './create-model-client';
import type { ModelClient, ModelTarget } from './model-client';

/** Gives each profile's model binding a client; `host` bindings go to the page (or the runner's endpoint). */
export type ModelResolver = (profile: AgentProfile) => ModelClient;

/** Why a keyed connection may not serve a site now: the user has not lent it, or the site's day's budget is spent. */
export type LendingRefusal = 'not-allowed' | 'budget-spent';

/**
 * Keyed connections are the user's to lend, per site (src/settings/connection-lending.ts). The
 * resolver asks before it gives a profile a connection that carries a key, and reports what it spent.
 */
export interface ConnectionLendingGate {
  /** Why this keyed connection may not serve now, or undefined when it may. */
  refusal(connection: Connection): LendingRefusal | undefined;
  /** An agent bound to the connection runs on the page's model instead. */
  onFallback(profile: AgentProfile, connection: Connection, refusal: LendingRefusal): void;
  /**
   * Asked before each call through the keyed connection: a place for the call, settled with the
   * tokens (in and out) it used, or undefined when the site's budget is spent (or the calls under way
   * would spend it); that call then goes to the page's model.
   */
  reserveCall(connection: Connection): { settle(tokens: number): void; cancel(): void } | undefined;
}

export interface ModelResolverOptions {
  /** The settings' connections, for profiles bound to a connection. */
  connections: readonly Connection[];
  /** Where `host`-bound profiles (the root, usually) call: the page's model, or the runner's endpoint. */
  host: ModelTarget;
  /**
   * Where `hostProfile`-bound profiles call: the page's endpoint, run by the page on the SillyTavern
   * connection profile of that name. Absent (the headless runner has no page): such profiles fail
   * with a ConfigurationError that says so.
   */
  hostProfile?: (profileName: string) => ModelTarget;
  /** Retry timing and retry notices for every client. */
  clientOptions?: Omit<ModelClientOptions, 'limiter'>;
  /**
   * One queue for every call through the page (the page's own model, whatever model it names, and
   * its connection profiles); without it each of those clients queues on its own `maxConcurrency`.
   */
  pageLimiter?: ConcurrencyLimiter;
  /**
   * Limiters by connection id. Give every resolver the same map (the background makes one resolver
   * per run) so that parallel runs respect each connection's `maxConcurrency` together.
   */
  connectionLimiters?: Map<string, ConcurrencyLimiter>;
  /**
   * Asked before a profile gets a connection that carries a key: refused, the profile runs on the
   * page's model (the `host` binding). Absent (the headless runner, where the user gave the key for
   * this run): every connection serves.
   */
  lending?: ConnectionLendingGate;
}

/**
 * Gives each profile's model binding a client: `host` → the host target (with the profile's model
 * instead of the page's when it names one); `hostProfile` → the page, on that SillyTavern connection
 * profile; `connection` → that
 * connection's endpoint and key, with the profile's model or the connection's default. Clients are
 * reused per connection and model, and every client of one connection shares its `maxConcurrency`.
 * Throws a ConfigurationError for a connection id the settings do not have.
 *
 * @example
 * const resolveModel = createModelResolver({ connections: settings.connections, host: pageTarget });
 * runtime.startRun({ ..., resolveModel });
 */
export function createModelResolver(options: ModelResolverOptions): ModelResolver {
  const clients = new Map<string, ModelClient>();
  const limiters = options.connectionLimiters ?? new Map<string, ConcurrencyLimiter>();
  const throughThePage: ModelClientOptions = { ...options.clientOptions, ...(options.pageLimiter ? { limiter: options.pageLimiter } : {}) };

  /** The page's model, or another model of the page's source (same endpoint and session, no key). */
  function hostClient(model: string | undefined): ModelClient {
    const key = model ? `host:${model}` : 'host';
    let client = clients.get(key);
    if (!client) {
      // Another model of the page's source is still the page's own model, by that model's name.
      const pageModel = options.host.pageModel !== undefined && model ? { pageModel: model } : {};
      const target = model ? { ...options.host, model, label: `${options.host.label} · ${model}`, ...pageModel } : options.host;
      client = createModelClient(target, throughThePage);
      clients.set(key, client);
    }
    return client;
  }

  /** A SillyTavern connection profile of the page, by name: still the page's session, never a key. */
  function hostProfileClient(profile: AgentProfile, profileName: string): ModelClient {
    const key = `hostProfile:${profileName}`;
    let client = clients.get(key);
    if (!client) {
      if (!options.hostProfile) {
        throw new ConfigurationError(
          'host-profile-without-page',
          `Agent '${profile.name}' runs on SillyTavern connection profile “${profileName}”, which only a SillyTavern page can use: run it in the browser on SillyTavern, or bind the agent to the page's model or a connection.`,
        );
      }
      client = createModelClient(options.hostProfile(profileName), throughThePage);
      clients.set(key, client);
    }
    return client;
  }

  function connectionClient(profile: AgentProfile, connectionId: string, model: string | undefined): ModelClient {
    const connection = options.connections.find((candidate) => candidate.id === connectionId);
    if (!connection) {
      // This text can reach the root and the page: it names the agent, never a connection's id or address.
      throw new ConfigurationError(
        'connection-missing',
        `Agent '${profile.id}' uses a connection that Retinue's settings no longer have. Add the connection again in Retinue's options, or give the agent another model.`,
      );
    }
    const modelId = model ?? connection.defaultModel;
    const key = `connection:${connection.id}:${modelId}`;
    let client = clients.get(key);
    if (!client) {
      let limiter = limiters.get(connection.id);
      if (!limiter) {
        limiter = createConcurrencyLimiter(connectionCallsAtOnce(connection));
        limiters.set(connection.id, limiter);
      }
      // Named by its label only: this text reaches pages and models, the id and address never do.
      const name = connectionName(connection);
      const target: ModelTarget = {
        label: `${name} · ${modelId}`,
        baseURL: connection.baseURL,
        apiKey: connection.apiKey,
        model: modelId,
        maxConcurrency: connectionCallsAtOnce(connection),
        authAdvice: `check the API key of ${name} in Retinue's options`,
        toolProtocol: connection.toolProtocol,
      };
      client = createModelClient(target, { ...options.clientOptions, limiter });
      clients.set(key, client);
    }
    return spendCounted(client, connection, profile);
  }

  /**
   * Each call of a keyed connection takes its place in the site's budget first and settles it with
   * its tokens; a call the budget no longer covers goes to the page's model, with the notice.
   */
  function spendCounted(client: ModelClient, connection: Connection, profile: AgentProfile): ModelClient {
    const lending = options.lending;
    if (!lending || !connection.apiKey) return client;
    return {
      label: client.label,
      async call(request) {
        const place = lending.reserveCall(connection);
        if (!place) {
          lending.onFallback(profile, connection, 'budget-spent');
          const host = hostClient(undefined);
          const result = await host.call(request);
          return { ...result, answeredBy: { label: host.label, ...(host.pageModel !== undefined ? { pageModel: host.pageModel } : {}) } };
        }
        try {
          const result = await client.call(request);
          place.settle(result.usage.totalTokens);
          return result;
        } catch (error) {
          place.cancel();
          throw error;
        }
      },
    };
  }

  return (profile) => {
    const binding = profile.model;
    if (binding.binding === 'host') return hostClient(binding.model);
    if (binding.binding === 'hostProfile') return hostProfileClient(profile, binding.profileName);
    const connection = options.connections.find((candidate) => candidate.id === binding.connectionId);
    const refusal = connection?.apiKey && options.lending ? options.lending.refusal(connection) : undefined;
    if (connection && refusal) {
      options.lending?.onFallback(profile, connection, refusal);
      return hostClient(undefined);
    }
    return connectionClient(profile, binding.connectionId, binding.model);
  };
}

/** How text for pages and models names a connection: by its label, never its id or address. */
export function connectionName(connection: Pick<Connection, 'label'>): string {
  const label = connection.label.trim();
  return label ? `connection “${label}”` : 'a connection without a label (give it one in Retinue’s options)';
}
