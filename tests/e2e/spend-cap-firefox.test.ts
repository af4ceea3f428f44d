import { afterAll, beforeAll, describe, test } from 'vitest';
import { startFirefoxScenario, type FirefoxScenario } from './chat-turn-scenarios';
import { expectSpendCapStopsDelegation, setTokenLimit } from './spend-cap-scenarios';
import { waitForFixtureReady } from './support/fixture-pages';

/** The token limit per run in Firefox ESR on both fixture pages: delegation stops, the side panel says so. */

let scenario: FirefoxScenario;
let panel: Awaited<ReturnType<FirefoxScenario['browser']['openExtensionPage']>>;

beforeAll(async () => {
  scenario = await startFirefoxScenario();
  await setTokenLimit(scenario.options, scenario.fixtures, scenario.model);
  panel = await scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(scenario.fixtures.origins.primary)}`);
});

afterAll(() => scenario?.close());

describe('Firefox: a run at its token limit', () => {
  test.each<[string, Record<string, string>]>([
    ['/openai-chat/', {}],
    ['/sillytavern/', { model: 'scripted-model' }],
  ])('%s %o starts no delegation past the limit, replies, and the side panel says so', async (path, query) => {
    const page = await scenario.browser.openPage(scenario.fixtures.pageUrl(path, query));
    await waitForFixtureReady(page);
    await expectSpendCapStopsDelegation({ page, model: scenario.model, store: scenario.options, panel, label: `Mara reaches the lighthouse (${path}).` });
    await page.close();
  });
});
