import { evaluateIn, waitUntil, type EvaluatingHandle } from './evaluating-handle';

/** A content script the extension registered at run time, as `scripting.getRegisteredContentScripts` lists it. */
export interface RegisteredContentScript {
  id: string;
  js?: string[];
  matches?: string[];
  world?: string;
  runAt?: string;
}

interface ScriptingApi {
  scripting: { getRegisteredContentScripts(): Promise<RegisteredContentScript[]> };
}

/**
 * The content scripts registered with `scripting.registerContentScripts`, read from an extension
 * page (either browser) or Chromium's service worker.
 *
 * @example
 * const scripts = await readRegisteredContentScripts(chromium.serviceWorker);
 */
export async function readRegisteredContentScripts(handle: EvaluatingHandle): Promise<RegisteredContentScript[]> {
  return evaluateIn(
    handle,
    async () => {
      const scope = globalThis as { browser?: ScriptingApi; chrome?: ScriptingApi };
      const scripts = await (scope.browser ?? scope.chrome)!.scripting.getRegisteredContentScripts();
      return scripts.map(({ id, js, matches, world, runAt }) => ({ id, js, matches, world, runAt }));
    },
    undefined,
  );
}

/**
 * Waits until the registered scripts satisfy `accept` (e.g. the page hook covers an origin after a
 * settings change) and returns them.
 *
 * @example
 * await waitForRegisteredContentScripts(worker, (scripts) => scripts.some((script) => script.world === 'MAIN'));
 */
export async function waitForRegisteredContentScripts(
  handle: EvaluatingHandle,
  accept: (scripts: RegisteredContentScript[]) => boolean,
  options: { description?: string; timeoutMs?: number } = {},
): Promise<RegisteredContentScript[]> {
  return waitUntil(
    async () => {
      const scripts = await readRegisteredContentScripts(handle);
      return accept(scripts) ? scripts : undefined;
    },
    { description: options.description ?? 'the registered content scripts to change', timeoutMs: options.timeoutMs ?? 10_000 },
  );
}

/** Whether any registered script's match patterns mention this origin's host (and port, if the pattern has one). */
export function coversOrigin(script: RegisteredContentScript, origin: string): boolean {
  const { hostname, host } = new URL(origin);
  return (script.matches ?? []).some((pattern) => pattern.includes(`//${host}/`) || pattern.includes(`//${hostname}/`));
}
