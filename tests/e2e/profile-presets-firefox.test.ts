import { afterAll, beforeAll, test } from 'vitest';
import { startFirefoxScenario, type FirefoxScenario } from './chat-turn-scenarios';
import { twoHelpersOnTwoPresets } from './profile-presets-scenarios';

/** Firefox: helpers on two SillyTavern connection profiles write with their two presets, and the side panel shows which. */

let scenario: FirefoxScenario;

beforeAll(async () => {
  scenario = await startFirefoxScenario();
});

afterAll(() => scenario?.close());

test("two helpers on two profiles send, each, their own preset's samplers, and their task rows say which", () => twoHelpersOnTwoPresets(scenario));
