import { openDB } from 'idb';
import { expect, test } from 'vitest';
import { HostContractError } from '../../../src/errors';
import { openRunStore } from '../../../src/store/idb-run-store';
import { RUN_STORE_VERSION } from '../../../src/store/schema';
import { buildInvocation, uniqueDatabaseName } from '../../support/record-builders';

// A message record gone from the middle of a history: the load fails fast and names the gap, so a
// person reading the side panel's error (or a bug report) knows which message the store lost.
test('a history with a message missing from its middle fails to load and names the missing message', async () => {
  const name = uniqueDatabaseName();
  const store = await openRunStore({ name });
  const messages = [
    { role: 'user' as const, content: 'Critique the duel.' },
    { role: 'assistant' as const, content: 'Reading the chapter.' },
    { role: 'assistant' as const, content: 'The duel lacks stakes.' },
  ];
  await store.putInvocation(buildInvocation({ id: 'child', runId: 'r1', kind: 'subagent', messages }));
  const database = await openDB(name, RUN_STORE_VERSION);
  const cursorStore = database.transaction('messages', 'readwrite').store;
  for (let cursor = await cursorStore.openCursor(); cursor; cursor = await cursor.continue()) {
    const record = cursor.value as { invocationId: string; seq: number };
    if (record.invocationId === 'child' && record.seq === 1) await cursor.delete();
  }
  database.close();

  const failure = await store.getInvocation('child').catch((caught: unknown) => caught);
  store.close();

  expect(failure).toBeInstanceOf(HostContractError);
  expect((failure as HostContractError).code).toBe('store-history-broken');
  expect((failure as HostContractError).message).toContain('message 1 is missing');
});
