import { describe, expect, test } from 'vitest';
import { WARM_UP_INTERVAL_MS } from '../../src/messaging/warm-up-port';
import { scenarioSettings, switchOnPrimarySite, waitForSitesOn, type Scenario } from './chat-turn-scenarios';
import { evaluateIn, waitUntil, type EvaluatingHandle } from './support/evaluating-handle';
import { sendFixtureMessage, waitForFixtureReady } from './support/fixture-pages';
import { writeSettings } from './support/settings';

/** The background as a test sees it: stopped on demand (Chromium) or by idleness (Firefox), and whether it runs. */
export interface WatchedBackground {
  /** Resolves once the background is not running. */
  stop(): Promise<void>;
  isRunning(): Promise<boolean>;
}

/** A fixture page the test types and clicks in: keyboard and mouse are the browser's own input, trusted. */
export interface InputPage {
  keyboard: { press(key: string): Promise<void> };
  mouse: { move(x: number, y: number): Promise<void>; down(): Promise<void>; up(): Promise<void> };
  close(): Promise<void>;
}

export type WarmUpScenario = Scenario<{ close(): Promise<void> }, EvaluatingHandle> & {
  background: WatchedBackground;
  /** Opens an ordinary page in a new tab (the browser's `openPage`). */
  openUrl(url: string): Promise<EvaluatingHandle & InputPage>;
};

/** Long enough for a started background to be seen running; nothing but the page's input should start it. */
const QUIET_MS = 1_000;

async function expectStaysStopped(background: WatchedBackground): Promise<void> {
  const until = Date.now() + QUIET_MS;
  while (Date.now() < until) {
    expect(await background.isRunning()).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

async function waitForRunning(background: WatchedBackground, what: string): Promise<void> {
  await waitUntil(() => background.isRunning(), { description: `the background started by ${what}`, timeoutMs: 10_000 });
}

async function openFixturePage(scenario: WarmUpScenario): Promise<EvaluatingHandle & InputPage> {
  const page = await scenario.openUrl(scenario.fixtures.pageUrl('/openai-chat/', {}));
  await waitForFixtureReady(page);
  return page;
}

async function openStoppedPage(scenario: WarmUpScenario): Promise<EvaluatingHandle & InputPage> {
  const page = await openFixturePage(scenario);
  await scenario.background.stop();
  return page;
}

/**
 * A key the user presses in an enabled page starts the stopped background; a second press within
 * the interval does not start it again; the turn that follows is served as any other.
 */
async function expectKeyPressStartsBackground(scenario: WarmUpScenario): Promise<void> {
  const page = await openStoppedPage(scenario);
  try {
    // Nothing else starts it: the page is loaded and idle.
    await expectStaysStopped(scenario.background);
    await page.keyboard.press('Shift');
    await waitForRunning(scenario.background, 'a key press');

    await scenario.background.stop();
    await page.keyboard.press('Shift');
    expect(WARM_UP_INTERVAL_MS).toBeGreaterThan(QUIET_MS * 4);
    await expectStaysStopped(scenario.background);

    scenario.model.reset();
    scenario.model.script(() => ({ content: 'The keeper looks up from the log.' }));
    const turn = await sendFixtureMessage(page, 'Mara knocks.');
    expect(turn).toMatchObject({ status: 'done', reply: 'The keeper looks up from the log.' });
  } finally {
    await page.close();
  }
}

/**
 * The page's own scripts cannot start it, only the user's input counts; and pressing a pointer
 * (send, swipe, regenerate) starts it as a key does.
 */
async function expectPageEventsIgnoredAndPointerPressCounted(scenario: WarmUpScenario): Promise<void> {
  const page = await openStoppedPage(scenario);
  try {
    await evaluateIn(page, () => {
      document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true }));
      document.body.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    }, undefined);
    await expectStaysStopped(scenario.background);

    await page.mouse.move(40, 40);
    await page.mouse.down();
    await page.mouse.up();
    await waitForRunning(scenario.background, 'a pointer press');
  } finally {
    await page.close();
  }
}

/** A page of a site switched off since it loaded keeps its bridge, which then starts nothing. */
async function expectSiteSwitchedOffIgnored(scenario: WarmUpScenario): Promise<void> {
  const { options, fixtures, model } = scenario;
  const page = await openFixturePage(scenario);
  try {
    const settings = scenarioSettings(fixtures, model);
    await writeSettings(options, { ...settings, sites: settings.sites?.map((site) => ({ ...site, enabled: false })) });
    await waitForSitesOn(options, []);
    await scenario.background.stop();
    await page.keyboard.press('Shift');
    await expectStaysStopped(scenario.background);
  } finally {
    await page.close();
    await switchOnPrimarySite(options, fixtures, model);
    await waitForSitesOn(options, [fixtures.origins.primary]);
  }
}

/** The warm-up's tests for one browser; `scenario` is read when each test runs (made in `beforeAll`). */
export function describeWarmUp(title: string, scenario: () => WarmUpScenario, timeoutMs: number): void {
  describe(title, () => {
    test('a key press starts it, once in the interval, and the turn after it is served', () => expectKeyPressStartsBackground(scenario()), timeoutMs);
    test("the page's own scripted events do not, a pointer press does", () => expectPageEventsIgnoredAndPointerPressCounted(scenario()), timeoutMs);
    test('a page of a site switched off since it loaded does not', () => expectSiteSwitchedOffIgnored(scenario()), timeoutMs);
  });
}
