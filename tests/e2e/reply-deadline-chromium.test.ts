import { afterAll, beforeAll, test } from 'vitest';
import { startChromiumScenario, type ChromiumScenario } from './chat-turn-scenarios';
import { CHAT_ID, runTurnsAcrossTheDeadline, switchOnDeadlineSite } from './reply-deadline-scenarios';

/** Chromium: a reply at the deadline on the SillyTavern fixture page, its late helper result carried to the next turn. */

let scenario: ChromiumScenario;
beforeAll(async () => {
  scenario = await startChromiumScenario();
  await switchOnDeadlineSite(scenario.options, scenario.fixtures, scenario.model);
});
afterAll(() => scenario?.close());

test('the first turn replies at the deadline; the second turn of the chat gets the helper’s late result', async () => {
  const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/sillytavern/', { model: 'scripted-model', chat_id: CHAT_ID }));
  await runTurnsAcrossTheDeadline(page, scenario.options, scenario.model);
  await page.close();
});
