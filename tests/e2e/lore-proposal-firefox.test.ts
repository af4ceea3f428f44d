import { afterAll, beforeAll, describe, test } from 'vitest';
import { startFirefoxScenario, type FirefoxScenario } from './chat-turn-scenarios';
import { loreProposalAppliedFromPanel } from './lore-proposal-scenarios';
import { saveScreenshot } from './support/screenshots';

/** Firefox: a helper's lore proposal, applied from the sidebar page, reaches the page's saveWorldInfo. */

let scenario: FirefoxScenario;

beforeAll(async () => {
  scenario = await startFirefoxScenario();
});

afterAll(() => scenario?.close());

describe('Firefox: lore proposals', () => {
  test('a proposal writes nothing until Apply in the sidebar, then reaches the page’s saveWorldInfo', async () => {
    const panel = await scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(scenario.fixtures.origins.primary)}`, {
      windowSize: { width: 400, height: 900 },
    });
    const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/sillytavern/'));

    await loreProposalAppliedFromPanel({ options: scenario.options, panel, page, fixtures: scenario.fixtures, model: scenario.model });

    await saveScreenshot(panel, 'side-panel-lore-applied-firefox');
  });
});
