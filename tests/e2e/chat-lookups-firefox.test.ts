import { afterAll, beforeAll, expect, test } from 'vitest';
import { startFirefoxScenario, waitForEndedRuns, type FirefoxScenario } from './chat-turn-scenarios';
import { EXPECTED_LOOKUPS, readShownLookups, runLookupTurn } from './chat-lookups-scenarios';
import { saveScreenshot } from './support/screenshots';

/** Firefox: a child searches the chat on the SillyTavern-shaped page; the sidebar page shows what it looked up. */

let scenario: FirefoxScenario;
beforeAll(async () => {
  scenario = await startFirefoxScenario();
});
afterAll(() => scenario?.close());

test('the continuity checker searches the chat and reads a message; its task row lists both', async () => {
  const sidebar = await scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(scenario.fixtures.origins.primary)}`, {
    windowSize: { width: 400, height: 900 },
  });
  const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/sillytavern/', { model: 'scripted-model' }));

  await runLookupTurn(page, scenario.model);
  await waitForEndedRuns(scenario.options, 1);
  await page.close();

  expect(await readShownLookups(sidebar)).toEqual(EXPECTED_LOOKUPS);
  await saveScreenshot(sidebar, 'side-panel-lookups-firefox');
});
