import { deleteDB } from 'idb';
import { beforeEach, expect, test } from 'vitest';
import { decideConnectionLoan, readSiteLending } from '../../../src/settings/connection-lending';
import { PRIVATE_DATABASE_NAME } from '../../../src/settings/private-database';

/**
 * A site's lending is read on every chat turn from the private database, which the background keeps
 * open for that (keptPrivateDatabase). Kept open, it must still show every decision at once and
 * never stand in the way of the database's deletion or upgrade.
 */
const site = 'https://chat.example.com';

beforeEach(async () => {
  await deleteDB(PRIVATE_DATABASE_NAME);
});

test('a loan decided elsewhere after a turn read the lending is seen by the next turn', async () => {
  expect((await readSiteLending(site)).mayUse('cloud')).toBe(false);

  await decideConnectionLoan({ origin: site, connectionId: 'cloud', decision: 'allowed' });

  expect((await readSiteLending(site)).mayUse('cloud')).toBe(true);
});

test('the kept database gives way to its deletion, and the next read opens it again', async () => {
  await decideConnectionLoan({ origin: site, connectionId: 'cloud', decision: 'allowed' });
  expect((await readSiteLending(site)).mayUse('cloud')).toBe(true);

  // Would never settle if the kept connection blocked it.
  await deleteDB(PRIVATE_DATABASE_NAME);

  expect((await readSiteLending(site)).mayUse('cloud')).toBe(false);
  await decideConnectionLoan({ origin: site, connectionId: 'cloud', decision: 'allowed' });
  expect((await readSiteLending(site)).mayUse('cloud')).toBe(true);
});
