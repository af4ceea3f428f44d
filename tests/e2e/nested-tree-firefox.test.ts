import { afterAll, beforeAll, expect, test } from 'vitest';
import { startFirefoxScenario, waitForEndedRuns, type FirefoxScenario } from './chat-turn-scenarios';
import { expectedTree, readShownTaskTree, runNestedTurn, switchOnNestedSite } from './nested-tree-scenarios';
import { saveScreenshot } from './support/screenshots';

/** Firefox: a nested run on the openai-chat fixture page, and its task tree in the sidebar page. */

let scenario: FirefoxScenario;
beforeAll(async () => {
  scenario = await startFirefoxScenario();
  await switchOnNestedSite(scenario.options, scenario.fixtures, scenario.model);
});
afterAll(() => scenario?.close());

test('a task the scene critic handed on shows in the sidebar inside the critic’s item', async () => {
  const sidebar = await scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(scenario.fixtures.origins.primary)}`, {
    windowSize: { width: 400, height: 900 },
  });
  const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/openai-chat/'));

  await runNestedTurn(page, scenario.model);
  const { tasks } = await waitForEndedRuns(scenario.options, 1);
  await page.close();

  expect(tasks).toHaveLength(2);
  expect(await readShownTaskTree(sidebar)).toEqual(expectedTree);
  await saveScreenshot(sidebar, 'side-panel-nested-firefox');
});
