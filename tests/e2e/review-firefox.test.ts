import { afterAll, beforeAll, describe, test } from 'vitest';
import { startFirefoxScenario, type FirefoxScenario } from './chat-turn-scenarios';
import { runEditedReviewTurn } from './review-scenarios';
import { saveScreenshot } from './support/screenshots';

/** Firefox: the sidebar page (`sidebar_action` → sidepanel.html, opened as a tab) edits a held result. */

let scenario: FirefoxScenario;

beforeAll(async () => {
  scenario = await startFirefoxScenario();
});

afterAll(() => scenario?.close());

describe('Firefox: reviewing a result', () => {
  test('a result edited in the sidebar reaches the page’s reply as the user wrote it', async () => {
    const panel = await scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(scenario.fixtures.origins.primary)}`, {
      windowSize: { width: 400, height: 900 },
    });
    const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/openai-chat/'));

    await runEditedReviewTurn({ options: scenario.options, panel, page, fixtures: scenario.fixtures, model: scenario.model });

    await saveScreenshot(panel, 'side-panel-review-firefox');
  });
});
