/**
 * The few parts of `window` the page hook and the bridge share: `fetch`, `location`, and
 * `postMessage` with transferred ports, delivered asynchronously as the browser does. Both scripts are
 * installed on the same object, as MAIN world and isolated world share one window.
 */
export class FakePageWindow extends EventTarget {
  readonly location: { href: string; origin: string };
  fetch: typeof fetch;

  constructor(serverFetch: typeof fetch, href = 'http://127.0.0.1:8000/chat/index.html') {
    super();
    this.fetch = serverFetch;
    this.location = { href, origin: new URL(href).origin };
  }

  /** The page's own `postMessage`: the event's `source` is this window and its `origin` the page's. */
  postMessage(data: unknown, _targetOrigin: string, transfer: MessagePort[] = []): void {
    this.deliverMessage({ data, ports: transfer, source: this, origin: this.location.origin });
  }

  /** A message from someone else: a frame inside the page or a window that opened it. */
  deliverMessage(message: { data: unknown; ports?: MessagePort[]; source: unknown; origin: string }): void {
    setTimeout(() => {
      const event = Object.assign(new Event('message'), { ports: [], ...message });
      this.dispatchEvent(event);
    }, 0);
  }
}

/** A recorded call to the page's original fetch, answered by the test's "server". */
export interface ServerCall {
  input: RequestInfo | URL;
  init: RequestInit | undefined;
}

/** The page's own fetch: records every call and answers with `respond`. */
export function createServerFetch(respond: (call: ServerCall) => Response | Promise<Response>) {
  const calls: ServerCall[] = [];
  const serverFetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    const call = { input, init };
    calls.push(call);
    return Promise.resolve(respond(call));
  }) as typeof fetch;
  return { calls, serverFetch };
}
