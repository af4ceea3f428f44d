import { afterEach, beforeEach, expect, test } from 'vitest';
import { measureRunBytes } from '../../../src/background/origin-storage-quota';
import { PROMPT_SNAPSHOT_PATH } from '../../../src/hosts/prompt-snapshot';
import { openRunStore } from '../../../src/store/idb-run-store';
import type { RunStore } from '../../../src/store/run-store';
import { buildInvocation, buildRun, buildTask, uniqueDatabaseName } from '../../support/record-builders';

let store: RunStore;
beforeEach(async () => {
  store = await openRunStore({ name: uniqueDatabaseName() });
});
afterEach(() => store.close());

const chat = [{ role: 'user' as const, content: 'a'.repeat(5_000) }];

test('the store counts what each write adds: kept records by their size now, history and journal once', async () => {
  await store.putRun(buildRun({ status: 'running' }));
  await store.writeFile({ runId: 'run-1', path: PROMPT_SNAPSHOT_PATH, content: JSON.stringify({ messages: chat }), updatedAt: 1 });
  // The root starts with the page's chat, which the store keeps as references to the snapshot.
  const root = buildInvocation({ id: 'root', status: 'created', messages: chat });
  await store.putInvocation(root);
  const atStart = store.writtenBytes?.('run-1');
  expect(atStart?.history).toBeGreaterThan(5_000);
  expect(atStart?.history).toBeLessThan(5_200);

  // A child's history is counted message by message, once each; its state as it stands.
  const child = buildInvocation({ id: 'child', kind: 'subagent', profileId: 'critic', exitPolicy: 'taskReturnRequired', messages: [{ role: 'user', content: 'b'.repeat(2_000) }] });
  await store.putInvocation(child);
  await store.putInvocation({ ...child, status: 'completed', messages: [...child.messages, { role: 'assistant', content: 'c'.repeat(1_000) }] });
  const afterChild = store.writtenBytes?.('run-1');
  expect((afterChild?.history ?? 0) - (atStart?.history ?? 0)).toBeGreaterThan(3_000);
  expect((afterChild?.history ?? 0) - (atStart?.history ?? 0)).toBeLessThan(3_100);

  await store.putTask(buildTask());
  await store.putTask(buildTask({ status: 'completed' }));
  await store.appendJournal({ runId: 'run-1', type: 'run-start', data: {} });
  await store.writeFile({ runId: 'run-1', path: 'notes/a.md', content: 'd'.repeat(4_000), updatedAt: 2 });
  await store.deleteFile('run-1', 'notes/a.md');

  // What was written is what a full measurement finds, but for the chat it holds by reference.
  const run = await store.getRun('run-1');
  const measured = await measureRunBytes(store, run!);
  const written = store.writtenBytes?.('run-1')?.total ?? 0;
  const chatJson = JSON.stringify(chat[0]).length;
  expect(Math.abs(measured - chatJson - written)).toBeLessThan(200);
});

test('a root stored running with its first step (as a run starts) counts the page\'s chat once, in the snapshot', async () => {
  await store.saveStep({
    run: buildRun({ status: 'running' }),
    files: [{ runId: 'run-1', path: PROMPT_SNAPSHOT_PATH, content: JSON.stringify({ messages: chat }), updatedAt: 1 }],
    invocations: [buildInvocation({ id: 'root', status: 'running', messages: [{ role: 'system', content: 'You write the reply.' }, ...chat] })],
  });
  const history = store.writtenBytes?.('run-1')?.history ?? 0;
  expect(history).toBeGreaterThan(5_000);
  expect(history).toBeLessThan(5_200);
});

test('a step stored in one transaction counts as its writes one by one would', async () => {
  const child = buildInvocation({ id: 'child', kind: 'subagent', profileId: 'critic', exitPolicy: 'taskReturnRequired', messages: [{ role: 'user', content: 'b'.repeat(2_000) }] });
  await store.saveStep({
    run: buildRun({ status: 'running' }),
    files: [{ runId: 'run-1', path: PROMPT_SNAPSHOT_PATH, content: JSON.stringify({ messages: chat }), updatedAt: 1 }],
    invocations: [buildInvocation({ id: 'root', status: 'created', messages: chat }), child],
    tasks: [buildTask()],
    journal: [{ runId: 'run-1', type: 'run-start', time: 1, data: {} }],
  });
  const written = store.writtenBytes?.('run-1');
  expect(written?.history).toBeGreaterThan(7_000);
  expect(written?.history).toBeLessThan(7_300);

  const run = await store.getRun('run-1');
  const measured = await measureRunBytes(store, run!);
  expect(Math.abs(measured - JSON.stringify(chat[0]).length - (written?.total ?? 0))).toBeLessThan(200);
});
