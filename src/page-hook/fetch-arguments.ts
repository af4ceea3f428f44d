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
    signal: init?.signal ?? request?.signal,
    headers() {
      const headers: Record<string, string> = {};
      request?.headers.forEach((value, name) => (headers[name] = value));
      new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
      return headers;
    },
  };
}

/**
 * The body text when it can be read, as the server would receive it: a string, Blob, ArrayBuffer,
 * typed array or DataView, or URLSearchParams in `init`, or a Request's body. A Request is read from a
 * clone whatever its `.body` says (Firefox has no `Request.prototype.body`), so the original can still
 * be sent. Undefined for bodies that cannot be read without being used up (streams) or are not text
 * (FormData).
 */
export function readBodyText(input: RequestInfo | URL, init: RequestInit | undefined): Promise<string | undefined> | string | undefined {
  // `!= null`: neither undefined nor null.
  if (init?.body != null) return readBodyInit(init.body);
  if (input instanceof Request && !input.bodyUsed) return input.clone().text().catch(() => undefined);
  return undefined;
}

function readBodyInit(body: BodyInit): Promise<string | undefined> | string | undefined {
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return searchParamsText(body);
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return new TextDecoder().decode(body);
  if (body instanceof Blob) return body.text().catch(() => undefined);
  return undefined;
}

/**
 * URLSearchParams built from JSON text (`new URLSearchParams(json)`) hold it as one name without a
 * value; anything else is read as the form text the server receives.
 */
function searchParamsText(params: URLSearchParams): string {
  const [only, ...more] = params;
  return only && !more.length && only[1] === '' && only[0].trimStart().startsWith('{') ? only[0] : params.toString();
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
