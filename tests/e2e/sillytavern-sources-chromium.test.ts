import { afterAll, beforeAll, describe, test } from 'vitest';
import { startChromiumScenario, type ChromiumScenario } from './chat-turn-scenarios';
import { expectDelegatedSourceTurn, SOURCE_PAGES } from './sillytavern-sources-scenarios';

/** Claude and Google sources of the SillyTavern-shaped page, in Chromium. */

let scenario: ChromiumScenario;

beforeAll(async () => {
  scenario = await startChromiumScenario();
});

afterAll(() => scenario?.close());

describe('Chromium: a SillyTavern turn on a Claude or Google source is delegated', () => {
  test.each(SOURCE_PAGES)('%s: the page shows the reply', async (_name, query) => {
    const page = await scenario.browser.context.newPage();
    await page.goto(scenario.fixtures.pageUrl('/sillytavern/', query));
    await expectDelegatedSourceTurn({ page, query, model: scenario.model, fixtures: scenario.fixtures, store: scenario.options });
    await page.close();
  });
});
