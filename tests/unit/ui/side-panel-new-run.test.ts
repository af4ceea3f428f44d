import { afterEach, beforeEach, expect, test } from 'vitest';
import { openRunStore } from '../../../src/store/idb-run-store';
import type { RunStore } from '../../../src/store/run-store';
import { createSidePanelState, type SidePanelState } from '../../../src/ui/side-panel/side-panel-state';
import { createFakePanelConnection, createMemorySettingsAccess } from '../../support/fake-panel-connection';
import { buildRun, uniqueDatabaseName } from '../../support/record-builders';

/**
 * A run that falls open ends within milliseconds of its start: the panel's reads for the new run may
 * begin before its end is stored, and its end's event then came while the panel still showed the
 * run before. Seen in the fail-open e2e under load: the panel kept the run "running", no note.
 */
const SITE = 'http://127.0.0.1:8000';

let inner: RunStore;
let state: SidePanelState;
let connection: ReturnType<typeof createFakePanelConnection>;
/** Holds the answers of reads of `run-2`'s record until released (reads still see the store as it was). */
let release: () => void;

beforeEach(async () => {
  inner = await openRunStore({ name: uniqueDatabaseName() });
  let released = false;
  const gate = new Promise<void>((resolve) => (release = () => ((released = true), resolve())));
  const store: RunStore = {
    ...inner,
    async getRun(runId) {
      const read = await inner.getRun(runId);
      if (runId === 'run-2' && !released) await gate;
      return read;
    },
  };
  connection = createFakePanelConnection();
  state = createSidePanelState({ store, connection, settings: createMemorySettingsAccess(), refreshDelayMs: 1 });
  await inner.putRun(buildRun({ id: 'run-1', origin: SITE, status: 'completed', createdAt: 1_000 }));
  await state.setOrigin(SITE);
  await state.settled();
});
afterEach(() => {
  state.dispose();
  inner.close();
});

test("a new run's end that comes while the panel still reads the run's start is shown, with its fallback", async () => {
  await inner.putRun(buildRun({ id: 'run-2', origin: SITE, status: 'running', createdAt: 2_000 }));
  const start = await inner.appendJournal({ runId: 'run-2', time: 2_000, type: 'run-start', invocationId: 'run-2-root', data: {} });
  connection.push(start);
  // The run falls open and ends before the panel's read of its start has answered.
  await inner.putRun(buildRun({ id: 'run-2', origin: SITE, status: 'failed', createdAt: 2_000, fallback: { code: 'tools-refused', reason: 'The endpoint said: tools are not supported.' } }));
  const end = await inner.appendJournal({ runId: 'run-2', time: 2_010, type: 'run-end', data: { status: 'failed' } });
  connection.push(end);
  release();
  await state.settled();

  expect(state.run.value).toMatchObject({ id: 'run-2', status: 'failed', fallback: { code: 'tools-refused' } });
  expect(state.journal.value.map((event) => event.type)).toEqual(['run-start', 'run-end']);
  expect(state.history.value.map((run) => [run.id, run.status])).toEqual([
    ['run-2', 'failed'],
    ['run-1', 'completed'],
  ]);
});

test('a run the user opened meanwhile stays shown: the new run is not read again over it', async () => {
  await inner.putRun(buildRun({ id: 'run-2', origin: SITE, status: 'running', createdAt: 2_000 }));
  connection.push(await inner.appendJournal({ runId: 'run-2', time: 2_000, type: 'run-start', invocationId: 'run-2-root', data: {} }));
  await state.openRun('run-1');
  connection.push(await inner.appendJournal({ runId: 'run-2', time: 2_010, type: 'run-end', data: { status: 'completed' } }));
  release();
  await state.settled();

  expect(state.pinnedRunId.value).toBe('run-1');
  expect(state.run.value?.id).toBe('run-1');
});
