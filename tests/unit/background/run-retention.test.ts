import { afterEach, beforeEach, expect, test } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { installRunRetention, LAST_PRUNE_KEY, type RunRetention } from '../../../src/background/run-retention';
import { settingsSchema, type Settings } from '../../../src/settings/schema';
import { openRunStore } from '../../../src/store/idb-run-store';
import type { RunStore } from '../../../src/store/run-store';
import { buildRun, uniqueDatabaseName } from '../../support/record-builders';

const DAY = 24 * 60 * 60 * 1_000;
const START = 100 * DAY;

let store: RunStore;
let settings: Settings;
let clock: number;
let retention: RunRetention | undefined;

beforeEach(async () => {
  fakeBrowser.reset();
  store = await openRunStore({ name: uniqueDatabaseName() });
  settings = settingsSchema.parse({ version: 1, defaults: { retentionDays: 30 } });
  clock = START;
  await store.putRun(buildRun({ id: 'old-finished', createdAt: START - 40 * DAY, status: 'completed' }));
  await store.putRun(buildRun({ id: 'old-running', createdAt: START - 40 * DAY, status: 'running' }));
  await store.putRun(buildRun({ id: 'recent', createdAt: START - 2 * DAY, status: 'failed' }));
});

afterEach(() => {
  retention?.stop();
  store.close();
});

const install = () => (retention = installRunRetention({ context: { getStore: async () => store, getSettings: async () => settings }, now: () => clock }));
const runIds = async () => (await store.listRuns()).map((run) => run.id).sort();

test('at start-up, runs older than the retention days go, except one still running; the time is kept', async () => {
  const started = install();
  const pruned = await started.pruneIfDue();

  expect(pruned).toBe(1);
  expect(await runIds()).toEqual(['old-running', 'recent']);
  expect(await fakeBrowser.storage.local.get(LAST_PRUNE_KEY)).toEqual({ [LAST_PRUNE_KEY]: START });
});

test('the start-up prune waits for its delay, so the event that woke the worker goes first', async () => {
  retention = installRunRetention({ context: { getStore: async () => store, getSettings: async () => settings }, now: () => clock, startupDelayMs: 40 });
  await new Promise((resolve) => setTimeout(resolve, 10));
  expect(await runIds()).toEqual(['old-finished', 'old-running', 'recent']);

  const pruneRecorded = new Promise<void>((resolve) => fakeBrowser.storage.local.onChanged.addListener((changes) => LAST_PRUNE_KEY in changes && resolve()));
  await pruneRecorded;
  expect(await runIds()).toEqual(['old-running', 'recent']);
});

test('a start-up less than a day after the last prune prunes nothing', async () => {
  await fakeBrowser.storage.local.set({ [LAST_PRUNE_KEY]: START - 2 * 60 * 60 * 1_000 });
  const pruned = await install().pruneIfDue();

  expect(pruned).toBe(0);
  expect(await runIds()).toEqual(['old-finished', 'old-running', 'recent']);
});

test('a run that ends a day after the last prune prunes again, with the retention setting as it is then', async () => {
  const started = install();
  await started.pruneIfDue();
  clock = START + DAY + 1;
  settings = settingsSchema.parse({ version: 1, defaults: { retentionDays: 1 } });

  const pruneRecorded = new Promise<void>((resolve) => fakeBrowser.storage.local.onChanged.addListener((changes) => LAST_PRUNE_KEY in changes && resolve()));
  await store.appendJournal({ runId: 'recent', type: 'run-end', data: { status: 'completed' } });
  await pruneRecorded;

  expect(await runIds()).toEqual(['old-running']);
  expect(await fakeBrowser.storage.local.get(LAST_PRUNE_KEY)).toEqual({ [LAST_PRUNE_KEY]: START + DAY + 1 });
});

test('a run that ends within the day leaves the store as it is', async () => {
  const started = install();
  await started.pruneIfDue();
  clock = START + DAY - 1;
  settings = settingsSchema.parse({ version: 1, defaults: { retentionDays: 1 } });

  await store.appendJournal({ runId: 'recent', type: 'run-end', data: { status: 'completed' } });
  const pruned = await started.pruneIfDue();

  expect(pruned).toBe(0);
  expect(await runIds()).toEqual(['old-running', 'recent']);
});
