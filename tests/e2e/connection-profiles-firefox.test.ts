import { afterAll, beforeAll, describe, test } from 'vitest';
import { startFirefoxScenario, type FirefoxScenario } from './chat-turn-scenarios';
import { helpersOnProfileAndOverride, missingProfileFailsOnlyItsTask, overrideOnOpenAiPage, profilesListedThroughTheBridge } from './connection-profile-scenarios';

/** Firefox: helpers on a SillyTavern connection profile or another model of the page's source, with no key from Retinue. */

let scenario: FirefoxScenario;

beforeAll(async () => {
  scenario = await startFirefoxScenario();
});

afterAll(() => scenario?.close());

describe('Firefox: helpers on connection profiles and model overrides', () => {
  test("on the SillyTavern-shaped page, a helper bound to a profile gets that profile's model, one with an override its model", () => helpersOnProfileAndOverride(scenario));

  test('on the OpenAI-style page, the override is the request model; a profile binding fails only its task', () => overrideOnOpenAiPage(scenario));

  test('a profile the page no longer has fails that task, naming it; the run goes on', () => missingProfileFailsOnlyItsTask(scenario));

  test("an extension page reads the page's connection profiles through the bridge: names, sources, models only", () => profilesListedThroughTheBridge(scenario));
});
