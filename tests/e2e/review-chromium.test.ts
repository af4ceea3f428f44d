import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startChromiumScenario, type ChromiumScenario } from './chat-turn-scenarios';
import { runEditedReviewTurn } from './review-scenarios';
import { axeViolations } from './support/axe';
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

    await runEditedReviewTurn({
      options: scenario.options,
      panel,
      page,
      fixtures: scenario.fixtures,
      model: scenario.model,
      // The held result, its buttons and its edit field meet WCAG 2.1 A/AA, light and dark.
      whileHeld: async (stage) => {
        for (const colorScheme of ['light', 'dark'] as const) {
          await panel.emulateMedia({ colorScheme });
          const { violations } = await axeViolations(panel);
          expect({ stage, colorScheme, violations }).toEqual({ stage, colorScheme, violations: [] });
          await saveScreenshot(panel, `side-panel-review-${stage}-${colorScheme}-chromium`);
        }
        await panel.emulateMedia({ colorScheme: 'light' });
      },
    });

    await saveScreenshot(panel, 'side-panel-review-chromium');
  });
});
