/**
 * A connection's API key is bound to the origin it was saved for (DESIGN.md §10): a key never follows
 * a connection to a new address. Changing the base URL's origin, by hand or by an import, drops the
 * stored key unless the change brings a key of its own.
 */

/** The origin of a base URL, or undefined when it is no URL. */
export function originOfBaseUrl(baseURL: unknown): string | undefined {
  if (typeof baseURL !== 'string') return undefined;
  try {
    return new URL(baseURL).origin;
  } catch {
    return undefined;
  }
}

/** Whether a stored key may stay with a connection that moves from `storedBaseUrl` to `nextBaseUrl`. */
export function keyMayStay(storedBaseUrl: string, nextBaseUrl: unknown): boolean {
  const next = originOfBaseUrl(nextBaseUrl);
  return next !== undefined && next === originOfBaseUrl(storedBaseUrl);
}

/**
 * The key an edited connection keeps: the key in the form when the user typed a new one or the origin
 * is unchanged; otherwise (same stored key, new origin) none, and `dropped` says so.
 *
 * @example
 * keyForEditedConnection({ baseURL: 'http://a/v1', apiKey: 'sk' }, { baseURL: 'http://b/v1', apiKey: 'sk' });
 * // { apiKey: '', dropped: true }
 */
export function keyForEditedConnection(
  stored: { baseURL: string; apiKey: string } | undefined,
  edited: { baseURL: string; apiKey: string },
): { apiKey: string; dropped: boolean } {
  if (!stored || stored.apiKey === '' || edited.apiKey !== stored.apiKey || keyMayStay(stored.baseURL, edited.baseURL)) {
    return { apiKey: edited.apiKey, dropped: false };
  }
  return { apiKey: '', dropped: true };
}
