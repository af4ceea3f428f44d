import { ProviderError } from '../errors';
import type { StatedContextWindow } from './endpoint-refusals';
import type { ModelTarget } from './model-client';
import type { AttemptFailure } from './retry-policy';

/**
 * A `context-too-long` refusal that states the model's window: the run trims to fit it before its
 * next send instead of learning the size by more refusals.
 */
export class ContextWindowRefusalError extends ProviderError {
  constructor(
    message: string,
    readonly contextWindow: StatedContextWindow,
    options: { status?: number } = {},
  ) {
    super('context-too-long', message, options);
  }
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

const MAX_PROVIDER_MESSAGE = 300;

/**
 * The ProviderError for a call that failed for good: what failed (the connection by its label, the
 * status, the provider's own words) and what to do. Its text reaches pages and models, so it names the
 * endpoint by label only: never the API key, the base URL or any other address, even when the provider
 * or the network error echoes them.
 */
export function providerErrorFor(
  target: ModelTarget,
  failure: Exclude<AttemptFailure, { kind: 'aborted' }>,
  attempts: number,
  request: { toolsOffered?: boolean } = {},
): ProviderError {
  const endpoint = `The model endpoint of ${target.label}`;
  // A retryable failure ends the call only once the tries are used up; any other may follow retried ones.
  const tries = attempts === 1 ? '' : failure.retryable ? ` (after ${attempts} tries)` : ` (on try ${attempts})`;
  const afterTries = attempts > 1 ? ` after ${attempts} tries` : '';
  if (failure.kind === 'network') {
    return new ProviderError(
      'provider-unreachable',
      redact(`${endpoint} could not be reached${afterTries} (${failure.detail}): check that the server is running and that the base URL is right.`, target),
    );
  }
  if (failure.kind === 'stream-broken') {
    return new ProviderError(
      'provider-stream-broken',
      redact(`${endpoint} broke off its streamed answer${afterTries} (${failure.detail}): check the server's health or its logs, then try again.`, target),
    );
  }
  if (failure.kind === 'cut') {
    return new ProviderError(
      'cut-answer',
      redact(`${endpoint} ended its answer early${afterTries} (${failure.detail}): the answer was cut short; check the server's logs or its output limits.`, target),
    );
  }
  if (failure.kind === 'protocol') {
    return new ProviderError(
      'provider-protocol',
      redact(`${endpoint} did not answer as an OpenAI-compatible chat-completions endpoint: ${failure.detail}. Check the base URL and the server's settings.`, target),
    );
  }
  const status = failure.status;
  const said = failure.providerMessage ? ` ("${truncate(failure.providerMessage)}")` : '';
  const answered = `${endpoint} answered ${status} ${STATUS_TEXT[status] ?? ''}`.trimEnd() + `${tries}${said}`;
  const { code, advice } = refusalAdvice(failure.refusal, request.toolsOffered === true, target) ?? adviceFor(status, target);
  const message = redact(`${answered}: ${advice}`, target);
  if (code === 'context-too-long' && failure.contextWindow) return new ContextWindowRefusalError(message, failure.contextWindow, { status });
  return new ProviderError(code, message, { status });
}

/** The codes the fail-open decision reads: the endpoint cannot take what Retinue adds. */
function refusalAdvice(refusal: string | undefined, toolsOffered: boolean, target: ModelTarget): { code: string; advice: string } | undefined {
  if (refusal === 'context-length') {
    return { code: 'context-too-long', advice: `the prompt does not fit the context of '${target.model}'; shorten the chat or use a model with a longer context.` };
  }
  if (refusal === 'history-shape') {
    return {
      code: 'history-refused',
      advice: `the chat template of '${target.model}' refuses the order or the roles of the messages Retinue sent; the page's own request is answered instead.`,
    };
  }
  if (refusal === 'stream-options') {
    return { code: 'stream-options-refused', advice: `the endpoint does not take \`stream_options\`; Retinue asks without it.` };
  }
  if (refusal === 'tools' && toolsOffered) {
    return { code: 'tools-refused', advice: `the endpoint refuses tool definitions for '${target.model}'; set its tool protocol to "prompted" (or "auto") in Retinue's options.` };
  }
  return undefined;
}

function adviceFor(status: number, target: ModelTarget): { code: string; advice: string } {
  if (status === 401 || status === 403) {
    return { code: 'provider-unauthorized', advice: `${target.authAdvice ?? `check the API key of ${target.label} in Retinue's options`}.` };
  }
  if (status === 404) {
    return { code: 'provider-not-found', advice: `check the base URL and that the model '${target.model}' exists there.` };
  }
  if (status === 429) {
    return { code: 'provider-rate-limited', advice: `the provider is rate-limiting; wait a little, or lower the concurrency of ${target.label}.` };
  }
  if (status >= 500) return { code: 'provider-server-error', advice: 'the provider is failing; try again later or check its logs.' };
  return { code: 'provider-rejected', advice: `the provider refused the request; check the model '${target.model}' and its settings.` };
}

function truncate(text: string): string {
  return text.length > MAX_PROVIDER_MESSAGE ? `${text.slice(0, MAX_PROVIDER_MESSAGE)}…` : text;
}

/** Web addresses anywhere in a text (a provider's message or a network error may quote one). */
const ADDRESS_PATTERN = /\b(?:https?|wss?):\/\/[^\s"'<>)]+/gi;

/**
 * Removes the API key and the endpoint's address from text, in case a provider or the network error
 * echoes them: the key becomes `[api key]`, any web address or the endpoint's host `[address]`.
 */
export function redact(text: string, target: ModelTarget): string {
  let redacted = target.apiKey.length >= 4 ? text.split(target.apiKey).join('[api key]') : text;
  redacted = redacted.replace(ADDRESS_PATTERN, '[address]');
  const host = hostOf(target.baseURL);
  if (host) redacted = redacted.split(host).join('[address]');
  return redacted;
}

function hostOf(baseURL: string): string | undefined {
  try {
    return new URL(baseURL).host || undefined;
  } catch {
    return undefined;
  }
}
