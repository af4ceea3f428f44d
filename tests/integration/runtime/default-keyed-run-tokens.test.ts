import { afterEach, expect, test } from 'vitest';
import { DEFAULT_KEYED_RUN_TOKENS } from '../../../src/runtime/limits/spend-cap';
import { isRoot, startHarness, testProfiles, type Harness } from './runtime-harness';

let harness: Harness;
afterEach(async () => {
  await harness.close();
});

const keyedCritic = { critic: { model: { binding: 'connection' as const, connectionId: 'paid' } } };

test('a run whose agents may call a keyed connection gets the default spend cap when no maxRunTokens is set', async () => {
  harness = await startHarness({ profiles: testProfiles(keyedCritic) });
  harness.server.queue(isRoot, { content: 'A reply.' });

  const keyed = await harness.startOn(harness.newRuntime(undefined, { keyedConnectionIds: ['paid'] }));
  expect(keyed.run.tokenCap).toBe(DEFAULT_KEYED_RUN_TOKENS);

  // The same agents with a connection that carries no key: no cap unless the user sets one.
  harness.server.queue(isRoot, { content: 'A reply.' });
  const keyless = await harness.startOn(harness.newRuntime(undefined, { keyedConnectionIds: [] }));
  expect(keyless.run.tokenCap).toBeUndefined();
});

test('the user’s own limit wins over the keyed default, and the root profile’s over both', async () => {
  harness = await startHarness({ profiles: testProfiles(keyedCritic), defaults: { maxRunTokens: 40_000 } });
  harness.server.queue(isRoot, { content: 'A reply.' });
  const byDefaults = await harness.startOn(harness.newRuntime(undefined, { keyedConnectionIds: ['paid'] }));
  expect(byDefaults.run.tokenCap).toBe(40_000);

  const root = { budget: { maxRounds: 8, maxToolCalls: 16, maxRunTokens: 9_000 } };
  harness.server.queue(isRoot, { content: 'A reply.' });
  const byRoot = await harness.startOn(harness.newRuntime(undefined, { profiles: testProfiles({ ...keyedCritic, root }), keyedConnectionIds: ['paid'] }));
  expect(byRoot.run.tokenCap).toBe(9_000);
});
