import { afterAll, beforeAll, describe, test } from 'vitest';
import { startChromiumScenario, type ChromiumScenario } from './chat-turn-scenarios';
import { expectHelperOnPageModelUntilAllowed } from './connection-consent-scenarios';

/** A keyed connection lent in Chromium's side panel. */

let scenario: ChromiumScenario;

beforeAll(async () => {
  scenario = await startChromiumScenario();
});

afterAll(() => scenario?.close());

describe('Chromium: lending a keyed connection', () => {
  test('a helper runs on the page’s model until the side panel’s Allow, then on the connection', async () => {
    const panel = await scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(scenario.fixtures.origins.primary)}`);
    const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/openai-chat/'));
    await expectHelperOnPageModelUntilAllowed({ options: scenario.options, panel, page, fixtures: scenario.fixtures, model: scenario.model });
  });
});
