import { afterAll, beforeAll, describe, test } from 'vitest';
import { startFirefoxScenario, type FirefoxScenario } from './chat-turn-scenarios';
import { expectSecondTabUnharmedByPoison } from './poisoned-answer-scenarios';

let scenario: FirefoxScenario;

beforeAll(async () => {
  scenario = await startFirefoxScenario();
});
afterAll(() => scenario?.close());

describe('Firefox: a poisoned answer in one tab', () => {
  test('a normal turn in a second tab of the same site still gets its delegated reply, and the side panel still answers', async () => {
    const origin = scenario.fixtures.origins.primary;
    const panel = await scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(origin)}`);
    const poisoned = await scenario.browser.openPage(scenario.fixtures.pageUrl('/openai-chat/'));
    const normal = await scenario.browser.openPage(scenario.fixtures.pageUrl('/openai-chat/'));
    await expectSecondTabUnharmedByPoison({ poisoned, normal, panel, model: scenario.model });
  });
});
