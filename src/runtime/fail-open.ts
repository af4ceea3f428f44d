import { RetinueError } from '../errors';
import type { RunFallback } from '../records/run';

/**
 * Fail open (DESIGN.md §13): when a run cannot do its job for a reason of Retinue's or of the
 * endpoint's abilities, the page gets its own generation instead of an error. This module decides
 * which endings those are; errors the page would have had anyway (a bad key, no quota, a missing
 * model, the provider down, a cancelled turn, settings the user must fix) stay errors.
 */

/**
 * Endings the model layer reports when the endpoint cannot serve what Retinue adds (`history-refused`:
 * a strict chat template refused the roles or order of Retinue's messages, which the page's own
 * request does not have).
 */
export const ENDPOINT_ABILITY_CODES = ['tools-refused', 'context-too-long', 'history-refused', 'empty-answer', 'cut-answer'] as const;

/** The fallback code of a run Retinue itself broke (storage, journal, an unexpected throw). */
export const RETINUE_ERROR_FALLBACK = 'retinue-error';
/** The fallback code of a refused request whose provider message names tools or function calling. */
export const TOOLS_REFUSED_FALLBACK = 'tools-refused';

const MAX_REASON_CHARS = 2_000;

/** Provider codes whose failure the page would have met without Retinue: never answered by fallback. */
const PAGE_WOULD_FAIL_TOO = new Set(['provider-unauthorized', 'provider-rate-limited', 'provider-unreachable']);

/** Words a provider uses when it refuses tools: "does not support tools", "tool_choice", "tool use", "function calling". */
const NAMES_TOOLS = /\b(tools?|tool_choice|tool_calls?|functions?|function_call(ing)?)\b/i;

/**
 * Ends a run so the page gets its own generation, for a reason the caller names (a limit the turn
 * met, say): abort the run's signal with it, and the run ends `failed` with `fallback` set.
 */
export class PageModelFallbackError extends RetinueError {
  constructor(readonly fallback: RunFallback) {
    super('host-contract', fallback.code, fallback.reason);
  }
}

/**
 * The fallback for the error a run's root ended with, or undefined when the page should get the
 * error. `error` is the RetinueError the root threw (its fault survives only until the run record).
 *
 * @example
 * fallbackForError(new HostContractError('journal-write-failed', 'The journal could not be saved.'));
 * // → { code: 'retinue-error', reason: 'The journal could not be saved.' }
 */
export function fallbackForError(error: Pick<RetinueError, 'fault' | 'code' | 'message'>): RunFallback | undefined {
  if (error instanceof PageModelFallbackError) return error.fallback;
  const reason = error.message.slice(0, MAX_REASON_CHARS);
  if ((ENDPOINT_ABILITY_CODES as readonly string[]).includes(error.code)) return { code: error.code, reason };
  if (error.fault === 'host-contract') return { code: RETINUE_ERROR_FALLBACK, reason };
  if (error.fault === 'provider' && !PAGE_WOULD_FAIL_TOO.has(error.code) && NAMES_TOOLS.test(providerWords(error.message))) {
    return { code: TOOLS_REFUSED_FALLBACK, reason };
  }
  return undefined;
}

/**
 * The provider's own words inside a ProviderError message (`answered 400 Bad Request ("…"): advice`),
 * so Retinue's advice (which names models and settings) is never mistaken for them.
 */
function providerWords(message: string): string {
  const start = message.indexOf('("');
  const end = message.lastIndexOf('")');
  return start >= 0 && end > start ? message.slice(start + 2, end) : '';
}
