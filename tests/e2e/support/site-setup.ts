import type { SettingsInput } from '../../../src/settings/schema';
import type { EvaluatingHandle } from './evaluating-handle';
import { coversOrigin, waitForRegisteredContentScripts } from './registrations';
import { writeSettings } from './settings';

/**
 * Writes a settings document that switches Retinue on for `origins` (adapter `auto` unless the
 * document's own `sites` say more) and waits until the page hook and the bridge are registered for
 * each of them, so a page opened afterwards is hooked from its first request. `handle` is an
 * extension page (options, side panel) in either browser, or Chromium's service worker.
 *
 * @example
 * const options = await chromium.openExtensionPage('options.html');
 * await switchSitesOn(options, [fixtures.origins.primary]);
 * const page = await chromium.openPage(fixtures.pageUrl('/openai-chat/'));
 */
export async function switchSitesOn(
  handle: EvaluatingHandle,
  origins: string[],
  document: Omit<SettingsInput, 'version'> = {},
): Promise<void> {
  const listed = new Set((document.sites ?? []).map((site) => site.origin));
  const sites = [...(document.sites ?? []), ...origins.filter((origin) => !listed.has(origin)).map((origin) => ({ origin, enabled: true }))];
  await writeSettings(handle, { ...document, version: 1, sites });
  await waitForRegisteredContentScripts(
    handle,
    (scripts) => origins.every((origin) => scripts.filter((script) => coversOrigin(script, origin)).length >= 2),
    { description: `the page hook and bridge to be registered for ${origins.join(', ')}` },
  );
}
