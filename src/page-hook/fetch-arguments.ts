/** What the page hook reads from a `fetch(input, init)` call. MAIN-world code: no imports. */
export interface FetchArguments {
  method: string;
  url: string;
  signal: AbortSignal | undefined;
  /** The headers in every form fetch accepts (Headers, pairs, record), flattened, from the Request then init. */
  headers(): Record<string, string>;
}

/** Reads method, absolute URL and signal without touching the body. */
export function readFetchArguments(input: RequestInfo | URL, init: RequestInit | undefined, baseUrl: string): FetchArguments {
  const request = input instanceof Request ? input : undefined;
  const rawUrl = request ? request.url : input instanceof URL ? input.href : String(input);
  return {
    method: (init?.method ?? request?.method ?? 'GET').toUpperCase(),
    url: new URL(rawUrl, baseUrl).href,
    signal: init?.signal ?? request?.signal ?? undefined,
    headers() {
      const headers: Record<string, string> = {};
      request?.headers.forEach((value, name) => (headers[name] = value));
      if (init?.headers) new Headers(init.headers).forEach((value, name) => (headers[name] = value));
      return headers;
    },
  };
}

/**
 * The body text when it can be read: a string in `init`, or a Request's body (read from a clone, so the
 * original can still be sent). Undefined for bodies that are not text (FormData, Blob, streams).
 */
export function readBodyText(input: RequestInfo | URL, init: RequestInit | undefined): Promise<string | undefined> | string | undefined {
  if (init && init.body !== undefined && init.body !== null) return typeof init.body === 'string' ? init.body : undefined;
  if (input instanceof Request && input.body) return input.clone().text();
  return undefined;
}

/** Parses JSON text; undefined when it is not JSON. */
export function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
