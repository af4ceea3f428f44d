import { afterAll, beforeAll, test } from 'vitest';
import { startChromiumScenario, type ChromiumScenario } from './chat-turn-scenarios';
import { runHelperBetweenTurnsIn, switchOnOnDemandCritic } from './run-between-scenarios';

/** Chromium: the side panel's Run button between turns on the SillyTavern fixture page; the result reaches the next turn. */

let scenario: ChromiumScenario;
beforeAll(async () => {
  scenario = await startChromiumScenario();
  await switchOnOnDemandCritic(scenario.options, scenario.fixtures, scenario.model);
});
afterAll(() => scenario?.close());

test('Run between turns: an on-demand helper runs on the ended turn, shows its result, and the next turn reads it', () => runHelperBetweenTurnsIn(scenario));
