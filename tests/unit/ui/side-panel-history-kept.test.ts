import { afterEach, beforeEach, expect, test } from 'vitest';
import { openRunStore } from '../../../src/store/idb-run-store';
import type { ListRunsOptions, RunStore } from '../../../src/store/run-store';
import { historyWithRun } from '../../../src/ui/side-panel/history-entries';
import { createSidePanelState, type SidePanelState } from '../../../src/ui/side-panel/side-panel-state';
import { createFakePanelConnection, createMemorySettingsAccess } from '../../support/fake-panel-connection';
import { buildRun, uniqueDatabaseName } from '../../support/record-builders';

/**
 * The panel keeps its history as a run starts and ends instead of reading every listed run again
 * (up to 2,000 records, each checked against its schema) twice a turn.
 */
const SITE = 'http://127.0.0.1:8000';

let inner: RunStore;
let state: SidePanelState;
let connection: ReturnType<typeof createFakePanelConnection>;
const historyReads: ListRunsOptions[] = [];

beforeEach(async () => {
  inner = await openRunStore({ name: uniqueDatabaseName() });
  const store: RunStore = {
    ...inner,
    listRuns(options) {
      if (options?.limit !== 1) historyReads.push(options ?? {});
      return inner.listRuns(options);
    },
  };
  connection = createFakePanelConnection();
  state = createSidePanelState({ store, connection, settings: createMemorySettingsAccess(), refreshDelayMs: 1 });
  for (let index = 1; index <= 30; index += 1) await inner.putRun(buildRun({ id: `old-${index}`, origin: SITE, status: 'completed', createdAt: index * 1_000 }));
  await state.setOrigin(SITE);
  await state.settled();
  historyReads.length = 0;
});
afterEach(() => {
  state.dispose();
  inner.close();
});

test("a new run shows in history as it starts and as it ends, without the site's runs read again", async () => {
  await inner.putRun(buildRun({ id: 'new', origin: SITE, status: 'running', createdAt: 40_000 }));
  connection.push(await inner.appendJournal({ runId: 'new', time: 40_000, type: 'run-start', invocationId: 'new-root', data: {} }));
  await state.settled();
  expect(state.history.value.slice(0, 2).map((run) => [run.id, run.status])).toEqual([
    ['new', 'running'],
    ['old-30', 'completed'],
  ]);

  await inner.putRun(buildRun({ id: 'new', origin: SITE, status: 'completed', createdAt: 40_000 }));
  connection.push(await inner.appendJournal({ runId: 'new', time: 40_500, type: 'run-end', data: { status: 'completed' } }));
  await state.settled();

  expect(state.history.value.map((run) => [run.id, run.status])).toEqual([
    ['new', 'completed'],
    ...Array.from({ length: 30 }, (_, index) => [`old-${30 - index}`, 'completed']),
  ]);
  expect(state.history.value).toEqual(await inner.listRuns({ origin: SITE }));
  expect(historyReads).toEqual([]);
});

test('history with a run: its entry replaced, or put where the store lists it, within the limit', () => {
  const runs = [3, 2, 1].map((second) => buildRun({ id: `r${second}`, origin: SITE, status: 'completed', createdAt: second * 1_000 }));
  const ended = buildRun({ id: 'r2', origin: SITE, status: 'failed', createdAt: 2_000 });
  expect(historyWithRun(runs, ended, 10).map((run) => [run.id, run.status])).toEqual([
    ['r3', 'completed'],
    ['r2', 'failed'],
    ['r1', 'completed'],
  ]);
  const between = buildRun({ id: 'r2b', origin: SITE, status: 'running', createdAt: 2_500 });
  expect(historyWithRun(runs, between, 10).map((run) => run.id)).toEqual(['r3', 'r2b', 'r2', 'r1']);
  expect(historyWithRun(runs, buildRun({ id: 'r0', origin: SITE, createdAt: 500 }), 10).map((run) => run.id)).toEqual(['r3', 'r2', 'r1', 'r0']);
  expect(historyWithRun(runs, buildRun({ id: 'r4', origin: SITE, createdAt: 4_000 }), 3).map((run) => run.id)).toEqual(['r4', 'r3', 'r2']);
});

test("two tabs' runs starting together both show in history as they end, whichever the panel follows", async () => {
  // Tab A's run starts; tab B's starts before A's is read, so the panel follows B and never shows A.
  await inner.putRun(buildRun({ id: 'tab-a', origin: SITE, status: 'running', createdAt: 40_000 }));
  await inner.putRun(buildRun({ id: 'tab-b', origin: SITE, status: 'running', createdAt: 40_010 }));
  connection.push(await inner.appendJournal({ runId: 'tab-a', time: 40_000, type: 'run-start', invocationId: 'a-root', data: {} }));
  connection.push(await inner.appendJournal({ runId: 'tab-b', time: 40_010, type: 'run-start', invocationId: 'b-root', data: {} }));
  await state.settled();
  expect(state.run.value?.id).toBe('tab-b');

  await inner.putRun(buildRun({ id: 'tab-a', origin: SITE, status: 'completed', createdAt: 40_000 }));
  connection.push(await inner.appendJournal({ runId: 'tab-a', time: 41_000, type: 'run-end', data: { status: 'completed' } }));
  await inner.putRun(buildRun({ id: 'tab-b', origin: SITE, status: 'failed', createdAt: 40_010 }));
  connection.push(await inner.appendJournal({ runId: 'tab-b', time: 42_000, type: 'run-end', data: { status: 'failed' } }));
  await state.settled();

  expect(state.history.value.slice(0, 3).map((run) => [run.id, run.status])).toEqual([
    ['tab-b', 'failed'],
    ['tab-a', 'completed'],
    ['old-30', 'completed'],
  ]);
  expect(state.history.value).toEqual(await inner.listRuns({ origin: SITE }));
  expect(historyReads).toEqual([]);
});

test('an ended run taken up again (a helper run between turns, a resumed run) reads as running in history, then as ended', async () => {
  await inner.putRun(buildRun({ id: 'old-30', origin: SITE, status: 'running', createdAt: 30_000, reopenedAt: 50_000 }));
  connection.push(await inner.appendJournal({ runId: 'old-30', time: 50_000, type: 'run-reopen', invocationId: 'old-30-root', data: { agentId: 'scene-critic' } }));
  await state.settled();
  expect(state.history.value[0]).toMatchObject({ id: 'old-30', status: 'running' });

  await inner.putRun(buildRun({ id: 'old-29', origin: SITE, status: 'running', createdAt: 29_000 }));
  connection.push(await inner.appendJournal({ runId: 'old-29', time: 50_100, type: 'run-resume', data: { tasks: 1 } }));
  await state.settled();
  expect(state.history.value[1]).toMatchObject({ id: 'old-29', status: 'running' });

  for (const [id, time] of [['old-30', 51_000], ['old-29', 51_500]] as const) {
    await inner.putRun(buildRun({ id, origin: SITE, status: 'completed', createdAt: Number(id.slice(4)) * 1_000, ...(id === 'old-30' ? { reopenedAt: 50_000 } : {}) }));
    connection.push(await inner.appendJournal({ runId: id, time, type: 'run-end', data: { status: 'completed' } }));
  }
  await state.settled();
  expect(state.history.value).toEqual(await inner.listRuns({ origin: SITE }));
  expect(state.history.value.slice(0, 2).map((run) => run.status)).toEqual(['completed', 'completed']);
  expect(historyReads).toEqual([]);
});

test('runs the background deleted (retention, a site\'s quota) leave history; a shown one gives way to the latest', async () => {
  expect(state.run.value?.id).toBe('old-30');
  connection.sent.length = 0;
  await inner.deleteRun('old-1');
  await inner.deleteRun('old-30');
  connection.pushDeleted(['old-1', 'old-30']);
  await state.settled();

  expect(state.history.value.map((run) => run.id)).toEqual(Array.from({ length: 28 }, (_, index) => `old-${29 - index}`));
  expect(state.run.value?.id).toBe('old-29');
  expect(historyReads).toEqual([]);

  // A run opened from history and then deleted: the panel follows the site's latest again.
  await state.openRun('old-5');
  await inner.deleteRun('old-5');
  connection.pushDeleted(['old-5']);
  await state.settled();
  expect(state.pinnedRunId.value).toBeUndefined();
  expect(state.run.value?.id).toBe('old-29');
  expect(connection.sent.at(-1)).toEqual({ type: 'subscribe-origin', origin: SITE });
  expect(state.history.value.some((run) => run.id === 'old-5')).toBe(false);
});
