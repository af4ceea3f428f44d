import { afterEach, beforeEach, expect, test } from 'vitest';
import { HostContractError, type RetinueError } from '../../../src/errors';
import { RunJournal } from '../../../src/runtime/run-journal';
import { openRunStore } from '../../../src/store/idb-run-store';
import type { RunStep, RunStore } from '../../../src/store/run-store';
import { buildInvocation, uniqueDatabaseName } from '../../support/record-builders';

let store: RunStore;
beforeEach(async () => {
  store = await openRunStore({ name: uniqueDatabaseName() });
});
afterEach(() => store.close());

/** The store, counting the steps it is asked to write. */
function countingSteps(target: RunStore, steps: RunStep[]): RunStore {
  return new Proxy(target, {
    get(inner, property, receiver) {
      const value: unknown = Reflect.get(inner, property, receiver);
      if (property !== 'saveStep' || typeof value !== 'function') return typeof value === 'function' ? (value as () => unknown).bind(inner) : value;
      return (step: RunStep) => {
        steps.push(step);
        return inner.saveStep(step);
      };
    },
  });
}

test('events a step takes are stored with it, numbered in the order they were noted', async () => {
  const steps: RunStep[] = [];
  const counted = countingSteps(store, steps);
  const journal = new RunJournal({ store: counted, runId: 'run-1', now: () => 1_000, idleMs: 60_000 });
  journal.note('model-call-start', { invocationId: 'root', data: { round: 1 } });
  journal.note('model-call-end', { invocationId: 'root', data: { round: 1, ok: true } });

  const write = counted.saveStep({ invocations: [buildInvocation({ id: 'root' })], journal: journal.take() });
  journal.carry(write);
  await journal.flush();

  expect(steps).toHaveLength(1);
  expect((await store.readJournal('run-1')).map((event) => [event.seq, event.type])).toEqual([
    [1, 'model-call-start'],
    [2, 'model-call-end'],
  ]);
});

test('events no step takes are written on their own after the idle time', async () => {
  const journal = new RunJournal({ store, runId: 'run-1', now: () => 1_000, idleMs: 5 });
  journal.note('task-queued', { taskId: 'task-1' });

  await new Promise((resolve) => setTimeout(resolve, 50));

  expect((await store.readJournal('run-1')).map((event) => event.type)).toEqual(['task-queued']);
});

test('a write of its own that fails fails the run and the flush; later events are not written', async () => {
  const failures: RetinueError[] = [];
  const broken = new Proxy(store, {
    get(inner, property, receiver) {
      if (property === 'saveStep') return () => Promise.reject(new DOMException('The disk is full.', 'QuotaExceededError'));
      const value: unknown = Reflect.get(inner, property, receiver);
      return typeof value === 'function' ? (value as () => unknown).bind(inner) : value;
    },
  });
  const journal = new RunJournal({ store: broken, runId: 'run-1', now: () => 1_000, onFailure: (error) => failures.push(error), idleMs: 60_000 });

  await expect(journal.record('run-start', {})).rejects.toBeInstanceOf(HostContractError);
  journal.note('run-end', {});

  await expect(journal.flush()).rejects.toThrow('The disk is full');
  expect(failures).toHaveLength(1);
  expect(journal.take()).toEqual([]);
});
