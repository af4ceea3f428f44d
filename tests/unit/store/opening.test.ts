import { IDBFactory as FakeIDBFactory, IDBKeyRange as FakeIDBKeyRange } from 'fake-indexeddb';
import { expect, test } from 'vitest';
import { HostContractError } from '../../../src/errors';
import { openRunStore } from '../../../src/store/idb-run-store';
import { RUN_STORE_VERSION } from '../../../src/store/schema';
import { buildRun, uniqueDatabaseName } from '../../support/record-builders';

test('a store opened on a factory handed in (a Node runner) keeps its records there, not in the global one', async () => {
  const factory = new FakeIDBFactory();
  const name = uniqueDatabaseName();
  const store = await openRunStore({ name, indexedDB: factory, keyRange: FakeIDBKeyRange });
  await store.putRun(buildRun({ id: 'private' }));
  await store.appendJournal({ runId: 'private', type: 'run-start' });
  expect((await store.readJournal('private')).map((event) => event.seq)).toEqual([1]);
  store.close();

  const reopened = await openRunStore({ name, indexedDB: factory, keyRange: FakeIDBKeyRange });
  expect((await reopened.getRun('private'))?.id).toBe('private');
  reopened.close();
  const global = await openRunStore({ name });
  expect(await global.getRun('private')).toBeUndefined();
  global.close();
});

test('reopening a database keeps every record and the journal numbering', async () => {
  const name = uniqueDatabaseName();
  const first = await openRunStore({ name });
  await first.putRun(buildRun({ id: 'r1' }));
  await first.appendJournal({ runId: 'r1', type: 'run-start' });
  first.close();

  const second = await openRunStore({ name });
  expect((await second.getRun('r1'))?.id).toBe('r1');
  expect((await second.appendJournal({ runId: 'r1', type: 'run-resume' })).seq).toBe(2);
  second.close();
});

test('an open store steps aside when a newer version of the extension upgrades the database', async () => {
  const name = uniqueDatabaseName();
  const store = await openRunStore({ name });
  const upgraded = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(name, RUN_STORE_VERSION + 1);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error('the upgrade was blocked by the open store'));
  });
  expect(upgraded.version).toBe(RUN_STORE_VERSION + 1);
  upgraded.close();
  // The old store object now fails fast instead of writing into a database it no longer understands.
  await expect(store.putRun(buildRun())).rejects.toBeInstanceOf(HostContractError);
});

test('a record IndexedDB cannot store (a function in journal data) fails as a host-contract error with its cause', async () => {
  const store = await openRunStore({ name: uniqueDatabaseName() });
  const error = await store
    .appendJournal({ runId: 'r1', type: 'tool-call-end', data: { callback: () => 1 } })
    .catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(HostContractError);
  expect((error as HostContractError).code).toBe('store-failed');
  expect((error as HostContractError).message).toContain('append to the journal of run r1');
  expect((error as HostContractError).cause).toBeInstanceOf(Error);
  expect((await store.appendJournal({ runId: 'r1', type: 'tool-call-end' })).seq).toBe(1);
  store.close();
});

test('without IndexedDB the store says how to provide one', async () => {
  const savedFactory = globalThis.indexedDB;
  Reflect.deleteProperty(globalThis, 'indexedDB');
  try {
    const refusal = await openRunStore({ name: 'y' }).catch((caught: unknown) => caught);
    expect(refusal).toBeInstanceOf(HostContractError);
    expect((refusal as HostContractError).message).toContain('fake-indexeddb/auto');
  } finally {
    globalThis.indexedDB = savedFactory;
  }
});
