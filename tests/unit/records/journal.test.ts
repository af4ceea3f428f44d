import { expect, test } from 'vitest';
import { HostContractError } from '../../../src/errors';
import { journalEventSchema, journalEventTypeSchema, type JournalEvent } from '../../../src/records/journal';
import { journalEventDataSchemas } from '../../../src/records/journal-events';
import { openRunStore } from '../../../src/store/idb-run-store';
import { summariseRunCost } from '../../../src/ui/side-panel/run-cost';
import { summariseTaskCost } from '../../../src/ui/side-panel/task-cost';
import { buildRun, uniqueDatabaseName } from '../../support/record-builders';

test('every event type has its schema, is named noun-verb in kebab-case, and reads with no data', () => {
  const types = Object.keys(journalEventDataSchemas);
  expect(journalEventTypeSchema.unwrap().options).toEqual(types);
  for (const type of types) {
    expect(type).toMatch(/^[a-z]+(?:-[a-z]+)+$/);
    expect(journalEventSchema.parse({ runId: 'r1', seq: 1, time: 1, type })).toMatchObject({ type, data: {} });
  }
});

test('an event of a type no schema names is refused', () => {
  expect(journalEventSchema.safeParse({ runId: 'r1', seq: 1, time: 1, type: 'run-explode', data: {} }).success).toBe(false);
});

test('the store refuses to write an event whose data breaks its type’s schema, and says which record', async () => {
  const store = await openRunStore({ name: uniqueDatabaseName() });
  const refusal = await store
    .appendJournal({ runId: 'r1', type: 'model-call-end', data: { round: 'first' as unknown as number } })
    .catch((error: unknown) => error);
  store.close();

  expect(refusal).toBeInstanceOf(HostContractError);
  expect((refusal as HostContractError).message).toContain('journal event');
});

test('events stored by earlier versions, with fewer or other fields, still read, and the cost line counts them', async () => {
  const store = await openRunStore({ name: uniqueDatabaseName() });
  // As an earlier version wrote them: a task-start with its title, a call end whose usage gave only output tokens.
  await store.appendJournal({ runId: 'r1', time: 10, type: 'task-start', invocationId: 'root', taskId: 't1', data: { workspaceKey: 'scene-critic', title: 'Critique' } });
  await store.appendJournal({ runId: 'r1', time: 20, type: 'model-call-start', invocationId: 'child', taskId: 't1', data: { round: 1, model: 'local · qwen3' } });
  await store.appendJournal({ runId: 'r1', time: 50, type: 'model-call-end', invocationId: 'child', taskId: 't1', data: { round: 1, usage: { completionTokens: 40 } } });
  const journal: JournalEvent[] = await store.readJournal('r1');
  store.close();

  const [started] = journal;
  expect(started?.type === 'task-start' ? started.data : undefined).toEqual({ workspaceKey: 'scene-critic', title: 'Critique' });
  expect(summariseRunCost(buildRun({ id: 'r1', createdAt: 0, endedAt: 100 }), journal, 100).byModel).toEqual([
    { model: 'local · qwen3', calls: 1, tokensIn: 0, tokensOut: 40, estimatedCalls: 0, unreportedCalls: 0, callMilliseconds: 30 },
  ]);
  expect(summariseTaskCost(journal)).toEqual([
    { taskName: 'scene-critic', model: 'local · qwen3', calls: 1, tokensIn: 0, tokensOut: 40, estimatedCalls: 0, unreportedCalls: 0 },
  ]);
});
