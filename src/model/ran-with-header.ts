import type { CallRanWith } from './model-client';

/**
 * The response header by which a call on a SillyTavern connection profile tells the model client what
 * it ran with: the page relay (src/hosts/page-relayed-fetch.ts) sets it from the page hook's report,
 * which the bridge and the run port checked against their schemas. The value is URI-encoded JSON,
 * since header values are Latin-1 and a preset's name may be in any language.
 */
export const RAN_WITH_HEADER = 'x-retinue-ran-with';

/** What a response's {@link RAN_WITH_HEADER} says, or undefined for any other response. */
export function readRanWithHeader(headers: Headers): CallRanWith | undefined {
  const value = headers.get(RAN_WITH_HEADER);
  if (value === null) return undefined;
  try {
    return JSON.parse(decodeURIComponent(value)) as CallRanWith;
  } catch {
    return undefined;
  }
}
