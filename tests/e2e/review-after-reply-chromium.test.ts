import { afterAll, beforeAll, describe, test } from 'vitest';
import { startChromiumScenario, type ChromiumScenario } from './chat-turn-scenarios';
import { runReviewAfterTheReply, switchOnReviewAfterReplySite } from './review-after-reply-scenarios';

/** Chromium: a result that waits for review past its run's end is decided in the side panel, for the next turn. */

let scenario: ChromiumScenario;
beforeAll(async () => {
  scenario = await startChromiumScenario();
  await switchOnReviewAfterReplySite(scenario.options, scenario.fixtures, scenario.model);
});
afterAll(() => scenario?.close());

describe('Chromium: a review after the reply', () => {
  for (const decision of ['edit', 'discard'] as const) {
    test(`a result ${decision === 'edit' ? 'edited' : 'discarded'} after the deadline reply ${decision === 'edit' ? 'reaches the next turn as edited' : 'never reaches the model'}`, async () => {
      const panel = await scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(scenario.fixtures.origins.primary)}`);
      const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/sillytavern/', { model: 'scripted-model', chat_id: `Mara - review ${decision}` }));
      await runReviewAfterTheReply({ page, panel, options: scenario.options, model: scenario.model, decision });
      await page.close();
      await panel.close();
    });
  }
});
