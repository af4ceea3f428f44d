import { afterAll, beforeAll, describe, test } from 'vitest';
import { expectKeyOnlyInPrivateDatabase } from './api-keys-scenarios';
import { startFirefoxScenario, type FirefoxScenario } from './chat-turn-scenarios';

/** API keys out of storage.local in Firefox. */

let scenario: FirefoxScenario;

beforeAll(async () => {
  scenario = await startFirefoxScenario();
});

afterAll(() => scenario?.close());

describe('Firefox: API keys', () => {
  test('a keyed connection found in storage.local has its key moved to the private database; storage.local keeps none', async () => {
    await expectKeyOnlyInPrivateDatabase(scenario.options);
  });
});
