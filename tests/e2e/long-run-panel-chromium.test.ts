import { afterAll, beforeAll, test } from 'vitest';
import { startChromiumScenario, type ChromiumScenario } from './chat-turn-scenarios';
import { expectLongRunDrawnAsScrolled, seedLongRun } from './long-run-panel-scenarios';

/** Chromium: a run of 40 tasks in the side panel, drawn a page at a time as it scrolls. */

let scenario: ChromiumScenario;
beforeAll(async () => {
  scenario = await startChromiumScenario();
});
afterAll(() => scenario?.close());

test('a long run’s task list and timeline draw the rest as they scroll near, each bar where its times put it', async () => {
  await seedLongRun(scenario.options, scenario.fixtures.origins.primary);
  const panel = await scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(scenario.fixtures.origins.primary)}`);
  await panel.setViewportSize({ width: 420, height: 900 });
  // A tab in the background is not laid out, so its observers never report; a side panel in use is shown.
  await panel.bringToFront();

  await expectLongRunDrawnAsScrolled(panel);
});
