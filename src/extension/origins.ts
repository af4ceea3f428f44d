/** The browsers Retinue builds for; match patterns differ between them. */
export type BrowserName = 'chrome' | 'firefox';

/** Loopback hosts whose `http://` pages Retinue may use without asking (host_permissions). */
const UP_FRONT_HOSTS = new Set(['localhost', '127.0.0.1']);

/**
 * The origin (`scheme://host[:port]`) of an http(s) URL, or undefined for anything else
 * (extension pages, `about:`, `file:`, text that is no URL).
 */
export function originOfUrl(url: string | undefined | null): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the manifest grants this origin up front (`http://localhost` and `http://127.0.0.1`, any port). */
export function isUpFrontOrigin(origin: string): boolean {
  const parsed = new URL(origin);
  return parsed.protocol === 'http:' && UP_FRONT_HOSTS.has(parsed.hostname);
}

/**
 * The match pattern that covers one origin, for content-script registration and host permissions.
 * Chrome matches ports (`http://127.0.0.1:8000/*`); Firefox match patterns may not carry a port, so
 * there the pattern covers every port of the host (`http://127.0.0.1/*`) and the bridge, which checks
 * the exact origin (port included) against the `sitesOn` list, passes every turn of another port through.
 *
 * @example
 * originMatchPattern('http://127.0.0.1:8000', 'chrome'); // 'http://127.0.0.1:8000/*'
 */
export function originMatchPattern(origin: string, browserName: BrowserName): string {
  const parsed = new URL(origin);
  const host = browserName === 'firefox' ? parsed.hostname : parsed.host;
  return `${parsed.protocol}//${host}/*`;
}

/** The browser this build targets, from WXT's build-time constant. */
export function currentBrowserName(): BrowserName {
  return import.meta.env.BROWSER === 'firefox' ? 'firefox' : 'chrome';
}
