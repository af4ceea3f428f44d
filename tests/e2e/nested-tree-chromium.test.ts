import { afterAll, beforeAll, expect, test } from 'vitest';
import { startChromiumScenario, waitForEndedRuns, type ChromiumScenario } from './chat-turn-scenarios';
import { expectedTree, readShownTaskTree, runNestedTurn, switchOnNestedSite } from './nested-tree-scenarios';
import { saveScreenshot } from './support/screenshots';

/** Chromium: a nested run on the openai-chat fixture page, and its task tree in the side panel. */

let scenario: ChromiumScenario;
beforeAll(async () => {
  scenario = await startChromiumScenario();
  await switchOnNestedSite(scenario.options, scenario.fixtures, scenario.model);
});
afterAll(() => scenario?.close());

test('a task the scene critic handed on shows in the side panel inside the critic’s item', async () => {
  const panel = await scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(scenario.fixtures.origins.primary)}`);
  await panel.setViewportSize({ width: 420, height: 900 });
  const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/openai-chat/'));

  await runNestedTurn(page, scenario.model);
  const { tasks } = await waitForEndedRuns(scenario.options, 1);
  await page.close();

  expect(tasks).toHaveLength(2);
  expect(await readShownTaskTree(panel)).toEqual(expectedTree);
  const handedOn = panel.getByRole('list', { name: 'Tasks scene-critic handed on' });
  expect(await handedOn.getByRole('listitem').count()).toBe(1);
  await saveScreenshot(panel, 'side-panel-nested-chromium');
});
