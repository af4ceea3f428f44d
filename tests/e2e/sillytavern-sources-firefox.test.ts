import { afterAll, beforeAll, describe, test } from 'vitest';
import { startFirefoxScenario, type FirefoxScenario } from './chat-turn-scenarios';
import { expectDelegatedSourceTurn, SOURCE_PAGES } from './sillytavern-sources-scenarios';

/** Claude and Google sources of the SillyTavern-shaped page, in Firefox ESR. */

let scenario: FirefoxScenario;

beforeAll(async () => {
  scenario = await startFirefoxScenario();
});

afterAll(() => scenario?.close());

describe('Firefox: a SillyTavern turn on a Claude or Google source is delegated', () => {
  test.each(SOURCE_PAGES)('%s: the page shows the reply', async (_name, query) => {
    const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/sillytavern/', query));
    await expectDelegatedSourceTurn({ page, query, model: scenario.model, fixtures: scenario.fixtures, store: scenario.options });
    await page.close();
  });
});
