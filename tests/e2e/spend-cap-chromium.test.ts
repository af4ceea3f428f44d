import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { startChromiumScenario, type ChromiumScenario } from './chat-turn-scenarios';
import { expectSpendCapStopsDelegation, setTokenLimit } from './spend-cap-scenarios';
import { waitForFixtureReady } from './support/fixture-pages';
import { saveScreenshot } from './support/screenshots';

/** The token limit per run in Chromium on both fixture pages: delegation stops, the side panel says so. */

let scenario: ChromiumScenario;
let panel: Page;

beforeAll(async () => {
  scenario = await startChromiumScenario();
  await setTokenLimit(scenario.options, scenario.fixtures, scenario.model);
  panel = await scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(scenario.fixtures.origins.primary)}`);
  await panel.setViewportSize({ width: 420, height: 900 });
});

afterAll(() => scenario?.close());

describe('Chromium: a run at its token limit', () => {
  test.each<[string, Record<string, string>]>([
    ['/openai-chat/', {}],
    ['/sillytavern/', { model: 'scripted-model' }],
  ])('%s %o starts no delegation past the limit, replies, and the side panel says so', async (path, query) => {
    const page = await scenario.browser.context.newPage();
    await page.goto(scenario.fixtures.pageUrl(path, query));
    await waitForFixtureReady(page);
    await expectSpendCapStopsDelegation({ page, model: scenario.model, store: scenario.options, panel, label: `Mara reaches the lighthouse (${path}).` });
    await saveScreenshot(panel, 'side-panel-chromium-token-limit');
    await page.close();
  });
});
