import { afterAll, beforeAll, test } from 'vitest';
import { startFirefoxScenario, type FirefoxScenario } from './chat-turn-scenarios';
import { runGuidedTurn } from './guidance-scenarios';

/** Firefox: a note sent from the sidebar page (opened as a tab) changes what a running helper returns. */

let scenario: FirefoxScenario;
beforeAll(async () => {
  scenario = await startFirefoxScenario();
});
afterAll(() => scenario?.close());

test('a note from the side panel reaches a running helper’s next call and changes its result', async () => {
  const panel = await scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(scenario.fixtures.origins.primary)}`, {
    windowSize: { width: 400, height: 900 },
  });
  const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/openai-chat/'));
  await runGuidedTurn({ options: scenario.options, panel, page, fixtures: scenario.fixtures, model: scenario.model });
  await page.close();
});
