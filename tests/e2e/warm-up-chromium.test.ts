import { afterAll, beforeAll, describe, test } from 'vitest';
import { startChromiumScenario, type ChromiumScenario } from './chat-turn-scenarios';
import { waitForFixtureReady } from './support/fixture-pages';
import {
  expectKeyPressStartsBackground,
  expectPageScriptEventsIgnored,
  expectPointerPressStartsBackground,
  expectSiteSwitchedOffIgnored,
  type WatchedBackground,
} from './warm-up-scenarios';

/** The user's input in an enabled page starts a stopped service worker (src/bridge/warm-up-on-input.ts). */

let scenario: ChromiumScenario;
let watched: Parameters<typeof expectKeyPressStartsBackground>[0];

beforeAll(async () => {
  scenario = await startChromiumScenario();
  const { browser: chromium, fixtures } = scenario;
  const background: WatchedBackground = {
    stop: () => chromium.stopServiceWorker(),
    isRunning: async () => chromium.serviceWorkerRunning,
  };
  const openPage = async () => {
    const page = await chromium.openPage(fixtures.pageUrl('/openai-chat/', {}));
    await waitForFixtureReady(page);
    return page;
  };
  watched = { ...scenario, background, openPage };
});

afterAll(() => scenario?.close());

describe('Chromium: the user at the page starts a stopped service worker', () => {
  test('a key press starts it, once in the interval, and the turn after it is served', () => expectKeyPressStartsBackground(watched), 60_000);
  test('a pointer press starts it', () => expectPointerPressStartsBackground(watched), 60_000);
  test("the page's own scripted events do not", () => expectPageScriptEventsIgnored(watched), 60_000);
  test('a page of a site switched off since it loaded does not', () => expectSiteSwitchedOffIgnored(watched), 60_000);
});
