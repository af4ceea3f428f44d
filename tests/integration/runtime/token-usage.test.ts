import { afterEach, expect, test } from 'vitest';
import { journalUsageSchema } from '../../../src/records/journal-events';
import { delegateCritic, isCritic, isRoot, startHarness, type Harness } from './runtime-harness';

let harness: Harness;
afterEach(async () => {
  await harness.close();
});

async function callUsages(runId: string) {
  const journal = await harness.journal(runId);
  return journal.filter((event) => event.type === 'model-call-end').map((event) => ({ invocationId: event.invocationId, taskId: event.taskId, usage: journalUsageSchema.parse(event.data.usage) }));
}

test('a stream without usage gets Retinue’s estimate, marked estimated in the records and the journal', async () => {
  harness = await startHarness();
  harness.server.queue(isRoot, { content: 'The duke lowers his blade.', omitUsage: true });

  const actual = await harness.start();

  expect(actual.reply).toBe('The duke lowers his blade.');
  expect(actual.run.usage.estimated).toBe(true);
  expect(actual.run.usage.promptTokens).toBeGreaterThan(0);
  expect(actual.run.usage.completionTokens).toBeGreaterThan(0);
  expect(actual.run.usage.totalTokens).toBe(actual.run.usage.promptTokens + actual.run.usage.completionTokens);
  const [call] = await callUsages(actual.run.id);
  expect(call?.usage).toMatchObject({ estimated: true, promptTokens: actual.run.usage.promptTokens, completionTokens: actual.run.usage.completionTokens });
  const root = await harness.store.getInvocation(actual.run.rootInvocationId);
  expect(root?.usage.estimated).toBe(true);
});

test('usage the provider reports is taken as it is and never marked estimated', async () => {
  harness = await startHarness();
  harness.server.queue(isRoot, { content: 'Reported.', usage: { prompt_tokens: 321, completion_tokens: 12, total_tokens: 333 } });

  const actual = await harness.start();

  expect(actual.run.usage).toMatchObject({ promptTokens: 321, completionTokens: 12, totalTokens: 333 });
  expect(actual.run.usage.estimated).toBeUndefined();
  const [call] = await callUsages(actual.run.id);
  expect(call?.usage.estimated).toBeUndefined();
});

test('a task whose model reports no usage is estimated on its own; the root’s reported calls stay as reported', async () => {
  harness = await startHarness();
  const reported = { usage: { prompt_tokens: 500, completion_tokens: 20, total_tokens: 520 } };
  harness.server.queue(isRoot, { toolCalls: [delegateCritic], ...reported }, { toolCalls: [{ name: 'agent_await', arguments: {} }], ...reported }, { content: 'Done.', ...reported });
  harness.server.queue(isCritic, { toolCalls: [{ name: 'task_return', arguments: { summary: 'A critique.' } }], omitUsage: true });

  const actual = await harness.start();

  const [task] = await harness.store.listTasks(actual.run.id);
  expect(task?.usage.estimated).toBe(true);
  expect(task?.usage.totalTokens).toBeGreaterThan(0);
  const calls = await callUsages(actual.run.id);
  const rootCalls = calls.filter((call) => call.taskId === undefined);
  expect(rootCalls.map((call) => call.usage.estimated)).toEqual([undefined, undefined, undefined]);
  expect(calls.filter((call) => call.taskId === task?.id).map((call) => call.usage.estimated)).toEqual([true]);
  expect(actual.run.usage.estimated).toBe(true);
  expect(actual.run.usage.totalTokens).toBe(3 * 520 + (task?.usage.totalTokens ?? 0));
});
