import { afterAll, beforeAll, describe, test } from 'vitest';
import { startFirefoxScenario, type FirefoxScenario } from './chat-turn-scenarios';
import { expectHelperOnPageModelUntilAllowed } from './connection-consent-scenarios';

/** A keyed connection lent in Firefox's side panel. */

let scenario: FirefoxScenario;

beforeAll(async () => {
  scenario = await startFirefoxScenario();
});

afterAll(() => scenario?.close());

describe('Firefox: lending a keyed connection', () => {
  test('a helper runs on the page’s model until the side panel’s Allow, then on the connection', async () => {
    const panel = await scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(scenario.fixtures.origins.primary)}`);
    const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/openai-chat/'));
    await expectHelperOnPageModelUntilAllowed({ options: scenario.options, panel, page, fixtures: scenario.fixtures, model: scenario.model });
  });
});
