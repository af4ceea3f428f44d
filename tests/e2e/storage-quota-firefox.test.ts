import { afterAll, beforeAll, describe, test } from 'vitest';
import { startFirefoxScenario, type FirefoxScenario } from './chat-turn-scenarios';
import { expectDeletedRunLeavesOpenPanel, expectQuotaPassThroughWithNotice } from './storage-quota-scenarios';

let scenario: FirefoxScenario;

beforeAll(async () => {
  scenario = await startFirefoxScenario();
});
afterAll(() => scenario?.close());

describe('Firefox: the per-site store quota', () => {
  // First: the next test leaves a running run that fills the quota.
  test('a run the quota deletes leaves the history of a side panel open on the site', async () => {
    const origin = scenario.fixtures.origins.primary;
    const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/openai-chat/'));
    const openPanel = () => scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(origin)}`);
    await expectDeletedRunLeavesOpenPanel({ options: scenario.options, page, openPanel, model: scenario.model, origin });
  });

  test('a site whose runs fill its quota gets its turn passed through, and the side panel says why', async () => {
    const origin = scenario.fixtures.origins.primary;
    const panel = await scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(origin)}`);
    const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/openai-chat/'));
    await expectQuotaPassThroughWithNotice({ options: scenario.options, page, panel, model: scenario.model, origin });
  });
});
