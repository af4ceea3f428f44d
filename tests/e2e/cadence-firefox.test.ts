import { afterAll, beforeAll, test } from 'vitest';
import { startFirefoxScenario, type FirefoxScenario } from './chat-turn-scenarios';
import { CADENCE_CHAT_ID, runAfterReplyTurns, switchOnAfterReplyCritic } from './cadence-scenarios';

/** Firefox: an after-the-reply helper on the SillyTavern fixture page; its result shows up next turn. */

let scenario: FirefoxScenario;
beforeAll(async () => {
  scenario = await startFirefoxScenario();
  await switchOnAfterReplyCritic(scenario.options, scenario.fixtures, scenario.model);
});
afterAll(() => scenario?.close());

test('an after-the-reply helper never delays the reply, and its result reaches the next turn', async () => {
  const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/sillytavern/', { model: 'scripted-model', chat_id: CADENCE_CHAT_ID }));
  await runAfterReplyTurns(page, scenario.options, scenario.model);
  await page.close();
});
