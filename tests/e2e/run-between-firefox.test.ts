import { afterAll, beforeAll, test } from 'vitest';
import { startFirefoxScenario, type FirefoxScenario } from './chat-turn-scenarios';
import { runHelperBetweenTurnsIn, switchOnOnDemandCritic } from './run-between-scenarios';

/** Firefox: the side panel's Run button between turns on the SillyTavern fixture page; the result reaches the next turn. */

let scenario: FirefoxScenario;
beforeAll(async () => {
  scenario = await startFirefoxScenario();
  await switchOnOnDemandCritic(scenario.options, scenario.fixtures, scenario.model);
});
afterAll(() => scenario?.close());

test('Run between turns: an on-demand helper runs on the ended turn, shows its result, and the next turn reads it', () => runHelperBetweenTurnsIn(scenario));
