import { expect } from 'vitest';
import type { SettingsInput } from '../../src/settings/schema';
import { PAGE_MESSAGE_MAX_CHARS } from '../../src/messaging/page-messages';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import type { ChromiumWithExtension } from './support/chromium';
import { defaultDelegations, scriptDelegatingRoot } from './support/delegating-root-script';
import { evaluateIn, type EvaluatingHandle } from './support/evaluating-handle';
import { sendFixtureMessage, waitForFixtureReady, type FixtureTurn } from './support/fixture-pages';
import type { FirefoxWithExtension } from './support/firefox';
import { startFixtureServer, type FixtureServer } from './support/fixture-server';
import { readRunStore, readStorage, writeSettings } from './support/settings';
import { coversOrigin, waitForRegisteredContentScripts } from './support/registrations';
import { switchSitesOn } from './support/site-setup';
import { waitUntil } from './support/evaluating-handle';

/** A key a connection carries in the settings; no page may ever see it. */
export const SECRET_KEY = 'sk-retinue-e2e-secret-never-in-a-page';

/**
 * The settings of the scenarios: the fixture server's primary origin switched on, the secondary one
 * not; built-in profiles (all on the page's own model); a connection with a key that no page may see.
 */
export function scenarioSettings(fixtures: FixtureServer, model: ScriptedModelServer): SettingsInput {
  return {
    version: 1,
    connections: [{ id: 'spare', label: 'Spare', baseURL: model.baseURL, apiKey: SECRET_KEY, defaultModel: 'scripted-model' }],
    sites: [{ origin: fixtures.origins.primary, enabled: true, adapter: 'auto' }],
    defaults: { maxRunningChildren: 3 },
  };
}

/** Writes the scenario settings from an extension page and waits for the primary origin's hook registrations. */
export async function switchOnPrimarySite(options: EvaluatingHandle, fixtures: FixtureServer, model: ScriptedModelServer): Promise<void> {
  await switchSitesOn(options, [fixtures.origins.primary], scenarioSettings(fixtures, model));
}

/** Everything a scenario file drives: the model server, the fixture pages, one browser with Retinue, its options page. */
export interface Scenario<Browser extends { close(): Promise<void> }, OptionsPage extends EvaluatingHandle> {
  model: ScriptedModelServer;
  fixtures: FixtureServer;
  browser: Browser;
  /** The extension's options page, open in its own tab; reads and writes the settings and the run store. */
  options: OptionsPage;
  /** Closes the browser, then the servers. */
  close(): Promise<void>;
}

export type ChromiumScenario = Scenario<ChromiumWithExtension, Awaited<ReturnType<ChromiumWithExtension['openExtensionPage']>>>;
export type FirefoxScenario = Scenario<FirefoxWithExtension, Awaited<ReturnType<FirefoxWithExtension['openExtensionPage']>>>;

async function startScenario<Browser extends { close(): Promise<void>; openExtensionPage(path: string): Promise<OptionsPage> }, OptionsPage extends EvaluatingHandle>(
  launch: () => Promise<Browser>,
): Promise<Scenario<Browser, OptionsPage>> {
  const model = await startScriptedModelServer();
  let fixtures: FixtureServer | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close();
    await fixtures?.close();
    await model.close();
  };
  try {
    fixtures = await startFixtureServer({ modelBaseUrl: model.baseURL });
    browser = await launch();
    const options = await browser.openExtensionPage('options.html');
    await switchOnPrimarySite(options, fixtures, model);
    return { model, fixtures, browser, options, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Starts the servers and Chromium with Retinue, the primary fixture origin switched on. */
export function startChromiumScenario(): Promise<ChromiumScenario> {
  // Loaded here, not at the top: a Firefox file then never loads playwright-core (about 1 s a file).
  return startScenario(async () => (await import('./support/chromium')).launchChromiumWithExtension());
}

/** Starts the servers and Firefox with Retinue, the primary fixture origin switched on; `preferences` are Firefox's own. */
export function startFirefoxScenario(preferences?: Record<string, unknown>): Promise<FirefoxScenario> {
  // Loaded here, not at the top: a Chromium file then never loads puppeteer-core.
  return startScenario(async () => (await import('./support/firefox')).launchFirefoxWithExtension({ preferences }));
}

/**
 * The main scenario on one fixture page (already loaded): one chat turn runs a root that delegates
 * two tasks; the reply in the page carries what the capsules said; the model server saw the briefings.
 */
export async function runDelegatingTurn(page: EvaluatingHandle, model: ScriptedModelServer, text: string): Promise<FixtureTurn> {
  model.reset();
  scriptDelegatingRoot(model);
  await waitForFixtureReady(page);
  const turn = await sendFixtureMessage(page, text);
  expect(turn.status).toBe('done');
  for (const delegation of defaultDelegations) {
    expect(turn.reply).toContain(delegation.finding);
    const briefing = model.requests.find((request) => request.toolNames.includes('task_return') && request.systemText.includes(delegation.systemMarker));
    expect(briefing?.allText).toContain(delegation.title);
  }
  // Progress went to the reasoning, never into the reply; the tool-calling turn's text neither.
  expect(turn.reply).not.toContain('started');
  expect(turn.reply).not.toContain('I will ask the retinue first.');
  return turn;
}

/** Waits until the store holds `count` runs, all ended, and returns them oldest first. */
export async function waitForEndedRuns(handle: EvaluatingHandle, count: number) {
  return waitUntil(
    async () => {
      const { runs, tasks } = await readRunStore(handle);
      runs.sort((left, right) => Number(left.createdAt) - Number(right.createdAt));
      return runs.length >= count && runs.every((run) => run.status !== 'running') ? { runs, tasks } : undefined;
    },
    { description: `${count} ended run(s) in the run store`, timeoutMs: 30_000 },
  );
}

/**
 * The site check on a page that was on: with the page open (hook and bridge in it), the site is switched
 * off; the next turn goes to the page's own server untouched and no run is recorded. Switches the site
 * on again afterwards.
 */
export async function expectTurnPassesThroughAfterSwitchOff(setup: {
  options: EvaluatingHandle;
  model: ScriptedModelServer;
  fixtures: FixtureServer;
  openPage: () => Promise<EvaluatingHandle & { close(): Promise<void> }>;
}): Promise<void> {
  const { options, model, fixtures } = setup;
  const page = await setup.openPage();
  const before = (await readRunStore(options)).runs.length;
  const settings = scenarioSettings(fixtures, model);
  await writeSettings(options, { ...settings, sites: settings.sites?.map((site) => ({ ...site, enabled: false })) });
  await waitForSitesOn(options, []);
  await waitForRegisteredContentScripts(options, (scripts) => !scripts.some((script) => coversOrigin(script, fixtures.origins.primary)), {
    description: 'the page hook to be unregistered',
  });
  try {
    model.reset();
    model.script(() => ({ content: 'Straight from the model.' }));
    const turn = await sendFixtureMessage(page, 'Hello');
    expect(turn).toMatchObject({ status: 'done', reply: 'Straight from the model.' });
    expect(model.requests.map((request) => request.toolNames)).toEqual([[]]);
    // A turn too large for the bridge to read goes back to the page's server just the same, unread:
    // the background never hears of it (no run, no "request too large" notice for a site that is off).
    const noticesBefore = await sizeNoticeCount(options);
    const oversized = `Long ${'x'.repeat(PAGE_MESSAGE_MAX_CHARS)}`;
    const big = await sendFixtureMessage(page, oversized);
    expect(big).toMatchObject({ status: 'done', reply: 'Straight from the model.' });
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]?.allText).toContain(oversized);
    expect(await sizeNoticeCount(options)).toBe(noticesBefore);
    expect((await readRunStore(options)).runs.length).toBe(before);
  } finally {
    await page.close();
    await switchOnPrimarySite(options, fixtures, model);
    await waitForSitesOn(options, [fixtures.origins.primary]);
  }
}

/** How many "request too large" notices the side panel has to show (`storage.session`). */
async function sizeNoticeCount(options: EvaluatingHandle): Promise<number> {
  return evaluateIn(options, async () => {
    type SessionApi = { storage: { session: { get(key: string): Promise<Record<string, unknown>> } } };
    const scope = globalThis as { browser?: SessionApi; chrome?: SessionApi };
    const items = await (scope.browser ?? scope.chrome)!.storage.session.get('pageNotices');
    const notices = Array.isArray(items.pageNotices) ? (items.pageNotices as { code?: unknown }[]) : [];
    return notices.filter((notice) => notice.code === 'limit-snapshot-size').length;
  }, undefined);
}

/** Waits until the background's `sitesOn` list (what the bridge reads) is `expected`. */
export async function waitForSitesOn(options: EvaluatingHandle, expected: string[]): Promise<void> {
  await waitUntil(async () => JSON.stringify(await readStorage(options, 'sitesOn')) === JSON.stringify(expected), {
    description: `the background to list ${expected.join(', ') || 'no site'} as on`,
  });
}
