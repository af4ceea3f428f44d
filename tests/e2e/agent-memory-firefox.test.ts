import { afterAll, beforeAll, test } from 'vitest';
import { runMemoryAcrossSwipes } from './agent-memory-scenarios';
import { startFirefoxScenario, type FirefoxScenario } from './chat-turn-scenarios';

/** Firefox: an agent's memory/state.md follows the swipe on screen, back and forth. */

let scenario: FirefoxScenario;
beforeAll(async () => {
  scenario = await startFirefoxScenario();
});
afterAll(() => scenario?.close());

for (const keeper of ['root', 'tracker'] as const) {
  test(`memory/state.md of ${keeper === 'root' ? 'the root' : 'a tracker delegated every turn'} follows a swipe back and forth, in what it reads and in the side panel`, async () => {
    const panel = await scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(scenario.fixtures.origins.primary)}`);
    const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/sillytavern/', { model: 'scripted-model', chat_id: `Mara - memory of the ${keeper}` }));
    await runMemoryAcrossSwipes({ page, panel, model: scenario.model, keeper });
    await page.close();
    await panel.close();
  });
}
