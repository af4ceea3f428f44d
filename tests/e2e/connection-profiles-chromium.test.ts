import { afterAll, beforeAll, describe, test } from 'vitest';
import { startChromiumScenario, type ChromiumScenario } from './chat-turn-scenarios';
import { helpersOnProfileAndOverride, missingProfileFailsOnlyItsTask, overrideOnOpenAiPage, profilesListedThroughTheBridge } from './connection-profile-scenarios';

/** Chromium: helpers on a SillyTavern connection profile or another model of the page's source, with no key from Retinue. */

let scenario: ChromiumScenario;

beforeAll(async () => {
  scenario = await startChromiumScenario();
});

afterAll(() => scenario?.close());

describe('Chromium: helpers on connection profiles and model overrides', () => {
  test("on the SillyTavern-shaped page, a helper bound to a profile gets that profile's model, one with an override its model", () => helpersOnProfileAndOverride(scenario));

  test('on the OpenAI-style page, the override is the request model; a profile binding fails only its task', () => overrideOnOpenAiPage(scenario));

  test('a profile the page no longer has fails that task, naming it; the run goes on', () => missingProfileFailsOnlyItsTask(scenario));

  test("an extension page reads the page's connection profiles through the bridge: names, sources, models only", () => profilesListedThroughTheBridge(scenario));
});
