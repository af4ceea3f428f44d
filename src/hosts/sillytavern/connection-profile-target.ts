import type { ModelTarget, ToolProtocolSetting } from '../../model/model-client';
import type { PageRelayedFetch } from '../page-relayed-fetch';

export interface ConnectionProfileTargetOptions {
  /** The page's origin. */
  origin: string;
  /** The SillyTavern connection profile, by the name the user gave it. */
  profileName: string;
  pageFetch: PageRelayedFetch;
  maxConcurrency: number;
  toolProtocol: ToolProtocolSetting;
}

/**
 * The model target of a `hostProfile` binding: calls go through the page hook, which runs them on the
 * named connection profile with the page's session (the profile decides source and model; no key is
 * sent from here). The base URL is never fetched: it keeps each profile's remembered tool protocol
 * apart from the page's own connection and from other profiles.
 */
export function connectionProfileTarget(options: ConnectionProfileTargetOptions): ModelTarget {
  const name = `SillyTavern connection profile “${options.profileName}”`;
  return {
    label: name,
    baseURL: `${options.origin}/retinue-connection-profile/${encodeURIComponent(options.profileName)}/`,
    // The page hook sets the profile's own model.
    model: '',
    apiKey: 'host-binding-sends-no-key',
    fetch: options.pageFetch.fetchThroughProfile(options.profileName),
    maxConcurrency: options.maxConcurrency,
    authAdvice: `check the API key saved for ${name} in SillyTavern (Retinue only reuses it)`,
    toolProtocol: options.toolProtocol,
  };
}
