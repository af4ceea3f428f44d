import { afterAll, beforeAll, test } from 'vitest';
import { configureMemoryKeeper, memoryKeepers, runMemoryAcrossSwipes } from './agent-memory-scenarios';
import { startChromiumScenario, type ChromiumScenario } from './chat-turn-scenarios';

/** Chromium: an agent's memory/state.md follows the swipe on screen, back and forth. */

let scenario: ChromiumScenario;
beforeAll(async () => {
  scenario = await startChromiumScenario();
});
afterAll(() => scenario?.close());

for (const [keeper, who] of memoryKeepers) {
  test(`memory/state.md of ${who} follows a swipe back and forth, in what it reads and in the side panel`, async () => {
    await configureMemoryKeeper(keeper, scenario);
    const panel = await scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(scenario.fixtures.origins.primary)}`);
    const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/sillytavern/', { model: 'scripted-model', chat_id: `Mara - memory of the ${keeper}` }));
    await runMemoryAcrossSwipes({ page, panel, model: scenario.model, keeper });
    await page.close();
    await panel.close();
  });
}
