import { openDB, type IDBPDatabase } from 'idb';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { HostContractError } from '../../../src/errors';
import { PROMPT_SNAPSHOT_PATH } from '../../../src/hosts/prompt-snapshot';
import type { AgentInvocation } from '../../../src/records/invocation';
import { openRunStore } from '../../../src/store/idb-run-store';
import type { RunStore } from '../../../src/store/run-store';
import { RUN_STORE_VERSION } from '../../../src/store/schema';
import { buildInvocation, buildTask, uniqueDatabaseName } from '../../support/record-builders';

let name: string;
let store: RunStore;
let database: IDBPDatabase;
beforeEach(async () => {
  name = uniqueDatabaseName();
  store = await openRunStore({ name });
  database = await openDB(name, RUN_STORE_VERSION);
});
afterEach(() => {
  database.close();
  store.close();
});

const chat = Array.from({ length: 30 }, (_, index) => ({
  role: index % 2 === 0 ? ('user' as const) : ('assistant' as const),
  content: `Chat line ${index}: ${'the rain drums on the roof. '.repeat(20)}`,
}));

async function messageRecords(invocationId: string): Promise<{ seq: number; message?: unknown; snapshotIndex?: number }[]> {
  return (await database.getAll('messages')).filter((record: { invocationId: string }) => record.invocationId === invocationId);
}

function withRound(invocation: AgentInvocation, text: string): AgentInvocation {
  return { ...invocation, messages: [...invocation.messages, { role: 'assistant', content: text }] };
}

test('a root history starting with the page chat refers to the prompt snapshot instead of storing the chat again', async () => {
  await store.writeFile({ runId: 'r1', path: PROMPT_SNAPSHOT_PATH, content: JSON.stringify({ messages: [{ role: 'system', content: 'Narrate.' }, ...chat] }), updatedAt: 1 });
  const root = buildInvocation({ id: 'root', runId: 'r1', messages: [{ role: 'system', content: 'Delegate when useful.\n\nNarrate.' }, ...chat] });

  await store.putInvocation(withRound(root, 'The door opens.'));

  expect(await store.getInvocation('root')).toEqual(withRound(root, 'The door opens.'));
  const records = await messageRecords('root');
  expect(records.filter((record) => record.snapshotIndex !== undefined).map((record) => record.snapshotIndex)).toEqual(chat.map((_, index) => index + 1));
  const storedCharacters = JSON.stringify(records).length;
  expect(storedCharacters).toBeLessThan(JSON.stringify(chat).length / 5);
});

test('a save after a round appends the new messages and leaves the stored ones untouched', async () => {
  const first = buildInvocation({ id: 'root', runId: 'r1', messages: chat });
  await store.putInvocation(first);
  // Mark a stored record: a store that rewrote the history would overwrite the mark.
  await database.put('messages', { runId: 'r1', invocationId: 'root', seq: 0, message: { role: 'user', content: 'marked' } });

  await store.putInvocation(withRound(first, 'Round two.'));

  const history = (await store.getInvocation('root'))?.messages ?? [];
  expect(history[0]).toEqual({ role: 'user', content: 'marked' });
  expect(history.slice(1)).toEqual(withRound(first, 'Round two.').messages.slice(1));
  expect((await messageRecords('root')).map((record) => record.seq)).toEqual(history.map((_, seq) => seq));
});

test('a stale copy holding fewer messages updates the state but never shortens the history', async () => {
  const stale = buildInvocation({ id: 'child', runId: 'r1', kind: 'subagent', depth: 1 });
  const current = withRound(withRound(stale, 'One.'), 'Two.');
  await store.putInvocation(current);

  await store.putInvocation({ ...stale, status: 'cancelled', endedAt: 5 });

  expect(await store.getInvocation('child')).toEqual({ ...current, status: 'cancelled', endedAt: 5 });
});

test('a message that breaks its schema is refused before anything is written, its tasks included', async () => {
  const root = buildInvocation({ id: 'root', runId: 'r1' });
  await store.putInvocation(root);
  await store.putTask(buildTask({ id: 't1', runId: 'r1' }));
  const broken = { ...root, status: 'completed' as const, messages: [...root.messages, { role: 'robot', content: 'beep' }] } as unknown as AgentInvocation;

  const refusal = await store.putInvocation(broken, { tasks: [buildTask({ id: 't1', runId: 'r1', resultDeliveredAt: 9 })] }).catch((caught: unknown) => caught);

  expect(refusal).toBeInstanceOf(HostContractError);
  expect((refusal as HostContractError).message).toContain('role');
  expect(await store.getInvocation('root')).toEqual(root);
  expect((await store.getTask('t1'))?.resultDeliveredAt).toBeUndefined();
});

test('a history whose prompt snapshot is gone fails fast and says so instead of loading short', async () => {
  await store.writeFile({ runId: 'r1', path: PROMPT_SNAPSHOT_PATH, content: JSON.stringify({ messages: chat }), updatedAt: 1 });
  await store.putInvocation(buildInvocation({ id: 'root', runId: 'r1', messages: chat }));
  await store.deleteFile('r1', PROMPT_SNAPSHOT_PATH);

  const failure = await store.getInvocation('root').catch((caught: unknown) => caught);

  expect(failure).toBeInstanceOf(HostContractError);
  expect((failure as HostContractError).code).toBe('store-history-broken');
  expect((failure as HostContractError).message).toContain('prompt snapshot');
});

test('a child history is never turned into snapshot references, even when its messages match the chat', async () => {
  await store.writeFile({ runId: 'r1', path: PROMPT_SNAPSHOT_PATH, content: JSON.stringify({ messages: chat }), updatedAt: 1 });
  await store.putInvocation(buildInvocation({ id: 'child', runId: 'r1', kind: 'subagent', depth: 1, messages: chat.slice(0, 3) }));

  expect((await messageRecords('child')).every((record) => record.message !== undefined)).toBe(true);
});
