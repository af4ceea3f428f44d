/** The connections a browser opens to one host over HTTP/1.1, Chromium and Firefox alike. */
export const CONNECTIONS_PER_HOST = 6;

/**
 * How many calls a keyed connection makes at once: its `maxConcurrency`, but at most
 * {@link CONNECTIONS_PER_HOST} when its address is plain `http:`, which browsers speak as HTTP/1.1
 * (HTTP/2 only over TLS). Past that a call would wait in the browser's own queue, where its helper's
 * clock runs; in Retinue's queue the clock stands still. An `https:` server may answer many calls on
 * one HTTP/2 connection, so its setting stands.
 *
 * @example
 * connectionCallsAtOnce({ baseURL: 'http://127.0.0.1:5001/v1', maxConcurrency: 8 }); // 6
 */
export function connectionCallsAtOnce(connection: { baseURL: string; maxConcurrency: number }): number {
  const plainHttp = connection.baseURL.trim().toLowerCase().startsWith('http:');
  return plainHttp ? Math.min(connection.maxConcurrency, CONNECTIONS_PER_HOST) : connection.maxConcurrency;
}
