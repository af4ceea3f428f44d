import { afterAll, beforeAll, describe, test } from 'vitest';
import { startChromiumScenario, type ChromiumScenario } from './chat-turn-scenarios';
import { loreProposalAppliedFromPanel } from './lore-proposal-scenarios';
import { saveScreenshot } from './support/screenshots';

/** Chromium: a helper's lore proposal, applied from the side panel, reaches the page's saveWorldInfo. */

let scenario: ChromiumScenario;

beforeAll(async () => {
  scenario = await startChromiumScenario();
});

afterAll(() => scenario?.close());

describe('Chromium: lore proposals', () => {
  test('a proposal writes nothing until Apply in the side panel, then reaches the page’s saveWorldInfo', async () => {
    const panel = await scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(scenario.fixtures.origins.primary)}`);
    await panel.setViewportSize({ width: 420, height: 900 });
    const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/sillytavern/'));

    await loreProposalAppliedFromPanel({ options: scenario.options, panel, page, fixtures: scenario.fixtures, model: scenario.model });

    await saveScreenshot(panel, 'side-panel-lore-applied-chromium');
  });
});
