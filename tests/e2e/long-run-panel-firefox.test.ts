import { afterAll, beforeAll, test } from 'vitest';
import { startFirefoxScenario, type FirefoxScenario } from './chat-turn-scenarios';
import { expectLongRunDrawnAsScrolled, seedLongRun } from './long-run-panel-scenarios';

/** Firefox: a run of 40 tasks in the sidebar page, drawn a page at a time as it scrolls. */

let scenario: FirefoxScenario;
beforeAll(async () => {
  scenario = await startFirefoxScenario();
});
afterAll(() => scenario?.close());

test('a long run’s task list and timeline draw the rest as they scroll near, each bar where its times put it', async () => {
  await seedLongRun(scenario.options, scenario.fixtures.origins.primary);
  const panel = await scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(scenario.fixtures.origins.primary)}`, {
    windowSize: { width: 420, height: 900 },
  });

  await expectLongRunDrawnAsScrolled(panel);
});
