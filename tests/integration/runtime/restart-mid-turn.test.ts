import { afterEach, expect, test } from 'vitest';
import { resultCapsuleSchema } from '../../../src/records/capsule';
import { CHILD_WRAP_UP_INSTRUCTION, ROOT_WRAP_UP_INSTRUCTION } from '../../../src/runtime/turn-resolution';
import type { RunStore } from '../../../src/store/run-store';
import {
  delegateCritic,
  isCritic,
  isRoot,
  rootHistory,
  startHarness,
  storeDyingWhen,
  taskHistory,
  testProfiles,
  type Harness,
} from './runtime-harness';

/**
 * A runtime killed (its store stops answering, no cooperative shutdown) in the middle of a model
 * turn: after the wrap-up instruction, after the answer to it, between two tool results. The
 * resumed invocation goes through the same loop as a fresh one and must end as that one would.
 */
let harness: Harness;
afterEach(async () => {
  await harness.close();
});

type Stored = { role: string; content?: unknown; tool_calls?: unknown };

const listAgain = { toolCalls: [{ name: 'workspace_list', arguments: {} }] };
const rootThatAwaits = (reply: string) => [{ toolCalls: [delegateCritic] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: reply }];
const criticAtCap = { critic: { budget: { maxRounds: 2, maxToolCalls: 10 } } };

async function criticHistory(store: RunStore): Promise<Stored[]> {
  const [run] = await store.listRuns();
  return run ? taskHistory(store, run.id, 'scene-critic') : [];
}

const endsWith = (history: readonly Stored[], matches: (message: Stored) => boolean) => {
  const last = history.at(-1);
  return last !== undefined && matches(last);
};
const isText = (text: string) => (message: Stored) => message.content === text;
const answersWrapUp = (history: readonly Stored[]) => history.at(-1)?.role === 'assistant' && history.at(-2)?.content === CHILD_WRAP_UP_INSTRUCTION;

/** Starts a run on a runtime over a store that dies once `diesWhen` holds, and waits for the death. */
async function runUntilDeath(diesWhen: (store: RunStore) => Promise<boolean>): Promise<string> {
  const dying = storeDyingWhen(harness.store, diesWhen);
  const created = harness.nextEvent((event) => event.type === 'run-start');
  void harness.startOn(harness.newRuntime(dying.store));
  const { runId } = await created;
  await dying.frozen;
  return runId;
}

async function criticCapsule(runId: string) {
  const [task] = await harness.store.listTasks(runId);
  const file = await harness.store.readFile(runId, task?.resultRef ?? '');
  return { task, capsule: resultCapsuleSchema.parse(JSON.parse(file?.content ?? '{}')) };
}

test('a child killed after it was told to wrap up makes its one last call on resume, offering only task_return', async () => {
  harness = await startHarness({ profiles: testProfiles(criticAtCap) });
  harness.server.queue(isRoot, ...rootThatAwaits('Done.'));
  harness.server.queue(isCritic, listAgain, listAgain, { toolCalls: [{ name: 'task_return', arguments: { summary: 'Half a critique.' } }] });
  const runId = await runUntilDeath(async (store) => endsWith(await criticHistory(store), isText(CHILD_WRAP_UP_INSTRUCTION)));
  expect(harness.server.requests.filter(isCritic)).toHaveLength(2);

  const actual = await harness.newRuntime().resumeRun(runId, { resolveModel: harness.resolveModel });

  expect(actual.reply).toBe('Done.');
  const criticRequests = harness.server.requests.filter(isCritic);
  expect(criticRequests).toHaveLength(3);
  expect(criticRequests[2]?.toolNames).toEqual(['task_return']);
  expect(criticRequests[2]?.body.tool_choice).toEqual({ type: 'function', function: { name: 'task_return' } });
  const instructions = (criticRequests[2]?.body.messages ?? []).filter((message) => message.content === CHILD_WRAP_UP_INSTRUCTION);
  expect(instructions).toHaveLength(1);
  const { task, capsule } = await criticCapsule(runId);
  expect(task).toMatchObject({ status: 'completed', resultStatus: 'partial' });
  expect(capsule.summary).toBe('Half a critique.');
});

test('a child killed after its wrap-up answer was stored ends with that answer on resume, without another call', async () => {
  harness = await startHarness({ profiles: testProfiles(criticAtCap) });
  harness.server.queue(isRoot, ...rootThatAwaits('Done.'));
  harness.server.queue(isCritic, listAgain, listAgain, { toolCalls: [{ name: 'task_return', arguments: { summary: 'Half a critique.' } }] });
  const runId = await runUntilDeath(async (store) => answersWrapUp(await criticHistory(store)));
  expect((await harness.store.listTasks(runId))[0]?.status).toBe('running');

  const actual = await harness.newRuntime().resumeRun(runId, { resolveModel: harness.resolveModel });

  expect(actual.reply).toBe('Done.');
  expect(harness.server.requests.filter(isCritic)).toHaveLength(3);
  const { task, capsule } = await criticCapsule(runId);
  expect(task).toMatchObject({ status: 'completed', resultStatus: 'partial' });
  expect(capsule.summary).toBe('Half a critique.');
  expect(capsule.warnings).toEqual(['Stopped at its budget (2 rounds, 10 tool calls) before finishing on its own; this result may be incomplete.']);
});

test('a child whose stored wrap-up answer is plain text gets that text as its partial result on resume', async () => {
  harness = await startHarness({ profiles: testProfiles(criticAtCap) });
  harness.server.queue(isRoot, ...rootThatAwaits('Done.'));
  harness.server.queue(isCritic, listAgain, listAgain, { content: 'What I saw so far.' });
  const runId = await runUntilDeath(async (store) => answersWrapUp(await criticHistory(store)));

  const actual = await harness.newRuntime().resumeRun(runId, { resolveModel: harness.resolveModel });

  expect(actual.reply).toBe('Done.');
  expect(harness.server.requests.filter(isCritic)).toHaveLength(3);
  const { capsule } = await criticCapsule(runId);
  expect(capsule).toMatchObject({ status: 'partial', summary: 'What I saw so far.' });
  expect(capsule.warnings).toEqual(['Stopped at its budget (2 rounds, 10 tool calls) and answered in plain text; this result may be incomplete.']);
});

test('a root killed after it was told to wrap up gets one last call without tools on resume, and that text is the reply', async () => {
  harness = await startHarness({ profiles: testProfiles({ root: { budget: { maxRounds: 1, maxToolCalls: 16 } } }) });
  harness.server.queue(isRoot, listAgain, { content: 'Final words.' });
  const runId = await runUntilDeath(async (store) => endsWith(await rootHistory(store), isText(ROOT_WRAP_UP_INSTRUCTION)));

  const actual = await harness.newRuntime().resumeRun(runId, { resolveModel: harness.resolveModel });

  expect(actual.reply).toBe('Final words.');
  const rootRequests = harness.server.requests.filter(isRoot);
  expect(rootRequests).toHaveLength(2);
  expect(rootRequests[1]?.toolNames).toEqual([]);
  expect(rootRequests[1]?.lastMessageText).toBe(ROOT_WRAP_UP_INSTRUCTION);
  expect((rootRequests[1]?.body.messages ?? []).filter((message) => message.content === ROOT_WRAP_UP_INSTRUCTION)).toHaveLength(1);
});

test('a root killed after its wrap-up answer was stored replies with it on resume, without asking again', async () => {
  harness = await startHarness({ profiles: testProfiles({ root: { budget: { maxRounds: 1, maxToolCalls: 16 } } }) });
  harness.server.queue(isRoot, listAgain, { content: 'Final words.' });
  const runId = await runUntilDeath(async (store) => endsWith(await rootHistory(store), isText('Final words.')));

  const actual = await harness.newRuntime().resumeRun(runId, { resolveModel: harness.resolveModel });

  expect(actual.reply).toBe('Final words.');
  expect(actual.run.status).toBe('completed');
  expect(harness.server.requests.filter(isRoot)).toHaveLength(2);
});

test('a turn killed between two tool results runs only the call without a result on resume', async () => {
  harness = await startHarness();
  const write = (path: string) => ({ name: 'workspace_write', arguments: { path, content: `Notes for ${path}.` } });
  harness.server.queue(isRoot, { toolCalls: [write('scratch/one.md'), write('scratch/two.md')] }, { content: 'Both written.' });
  const runId = await runUntilDeath(async (store) => (await rootHistory(store)).filter((message) => message.role === 'tool').length === 1);
  const resumeSeq = (await harness.journal(runId)).length;

  const actual = await harness.newRuntime().resumeRun(runId, { resolveModel: harness.resolveModel });

  expect(actual.reply).toBe('Both written.');
  const rerun = (await harness.journal(runId)).slice(resumeSeq).filter((event) => event.type === 'tool-call-start');
  expect(rerun.map((event) => event.data)).toEqual([expect.objectContaining({ tool: 'workspace.write', replay: false })]);
  const lastRootRequest = harness.server.requests.filter(isRoot).at(-1);
  const results = (lastRootRequest?.body.messages ?? []).filter((message) => message.role === 'tool');
  expect(results).toHaveLength(2);
  expect((await harness.store.readFile(runId, 'scratch/two.md'))?.content).toBe('Notes for scratch/two.md.');
});
