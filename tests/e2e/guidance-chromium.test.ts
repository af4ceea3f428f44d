import { afterAll, beforeAll, test } from 'vitest';
import { startChromiumScenario, type ChromiumScenario } from './chat-turn-scenarios';
import { runGuidedTurn } from './guidance-scenarios';

/** Chromium: a note sent from the side panel (opened as a tab) changes what a running helper returns. */

let scenario: ChromiumScenario;
beforeAll(async () => {
  scenario = await startChromiumScenario();
});
afterAll(() => scenario?.close());

test('a note from the side panel reaches a running helper’s next call and changes its result', async () => {
  const panel = await scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(scenario.fixtures.origins.primary)}`);
  const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/openai-chat/'));
  await runGuidedTurn({ options: scenario.options, panel, page, fixtures: scenario.fixtures, model: scenario.model });
  await page.close();
});
