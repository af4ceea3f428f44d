import { afterAll, beforeAll, describe, test } from 'vitest';
import { expectKeyOnlyInPrivateDatabase } from './api-keys-scenarios';
import { startChromiumScenario, type ChromiumScenario } from './chat-turn-scenarios';

/** API keys out of storage.local in Chromium. */

let scenario: ChromiumScenario;

beforeAll(async () => {
  scenario = await startChromiumScenario();
});

afterAll(() => scenario?.close());

describe('Chromium: API keys', () => {
  test('a keyed connection found in storage.local has its key moved to the private database; storage.local keeps none', async () => {
    await expectKeyOnlyInPrivateDatabase(scenario.options);
  });
});
