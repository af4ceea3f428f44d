import { afterAll, beforeAll, describe, test } from 'vitest';
import { startChromiumScenario, type ChromiumScenario } from './chat-turn-scenarios';
import { runEditedReviewTurn } from './review-scenarios';
import { saveScreenshot } from './support/screenshots';

/** Chromium: a result held for review is edited in the side panel (opened as a tab at panel width). */

let scenario: ChromiumScenario;

beforeAll(async () => {
  scenario = await startChromiumScenario();
});

afterAll(() => scenario?.close());

describe('Chromium: reviewing a result', () => {
  test('a result edited in the side panel reaches the page’s reply as the user wrote it', async () => {
    const panel = await scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(scenario.fixtures.origins.primary)}`);
    await panel.setViewportSize({ width: 420, height: 900 });
    const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/openai-chat/'));

    await runEditedReviewTurn({ options: scenario.options, panel, page, fixtures: scenario.fixtures, model: scenario.model });

    await saveScreenshot(panel, 'side-panel-review-chromium');
  });
});
