import { afterAll, beforeAll } from 'vitest';
import { startChromiumScenario, type ChromiumScenario } from './chat-turn-scenarios';
import { describeWarmUp, type WarmUpScenario } from './warm-up-scenarios';

/** The user's input in an enabled page starts a stopped service worker (src/bridge/warm-up-on-input.ts). */

let scenario: ChromiumScenario;
let watched: WarmUpScenario;

beforeAll(async () => {
  scenario = await startChromiumScenario();
  const chromium = scenario.browser;
  watched = {
    ...scenario,
    background: { stop: () => chromium.stopServiceWorker(), isRunning: async () => chromium.serviceWorkerRunning },
    openUrl: (url) => chromium.openPage(url),
  };
});

afterAll(() => scenario?.close());

describeWarmUp('Chromium: the user at the page starts a stopped service worker', () => watched, 60_000);
