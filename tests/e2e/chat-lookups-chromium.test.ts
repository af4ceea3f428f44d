import { afterAll, beforeAll, expect, test } from 'vitest';
import { startChromiumScenario, waitForEndedRuns, type ChromiumScenario } from './chat-turn-scenarios';
import { EXPECTED_LOOKUPS, readShownLookups, runLookupTurn } from './chat-lookups-scenarios';
import { saveScreenshot } from './support/screenshots';

/** Chromium: a child searches the chat on the SillyTavern-shaped page; the side panel shows what it looked up. */

let scenario: ChromiumScenario;
beforeAll(async () => {
  scenario = await startChromiumScenario();
});
afterAll(() => scenario?.close());

test('the continuity checker searches the chat and reads a message; its task row lists both', async () => {
  const panel = await scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(scenario.fixtures.origins.primary)}`);
  await panel.setViewportSize({ width: 420, height: 900 });
  const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/sillytavern/', { model: 'scripted-model' }));

  await runLookupTurn(page, scenario.model);
  await waitForEndedRuns(scenario.options, 1);
  await page.close();

  expect(await readShownLookups(panel)).toEqual(EXPECTED_LOOKUPS);
  await saveScreenshot(panel, 'side-panel-lookups-chromium');
});
