import { afterAll, beforeAll, test } from 'vitest';
import { startChromiumScenario, type ChromiumScenario } from './chat-turn-scenarios';
import { twoHelpersOnTwoPresets } from './profile-presets-scenarios';

/** Chromium: helpers on two SillyTavern connection profiles write with their two presets, and the side panel shows which. */

let scenario: ChromiumScenario;

beforeAll(async () => {
  scenario = await startChromiumScenario();
});

afterAll(() => scenario?.close());

test("two helpers on two profiles send, each, their own preset's samplers, and their task rows say which", () => twoHelpersOnTwoPresets(scenario));
