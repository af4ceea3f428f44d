import { afterEach, expect, test } from 'vitest';
import type { RunStep, RunStore } from '../../../src/store/run-store';
import { delegate, isCritic, isRoot, rootHistory, startHarness, storeDyingAtStep, storeDyingWhen, storeWith, type Harness } from './runtime-harness';

/**
 * What a run writes per step (issue 23): a round's journal events ride with its history append,
 * and the delegate calls of one turn are stored in one step, with their tasks and children.
 */
let harness: Harness;
afterEach(async () => {
  await harness.close();
});

const WRITES = new Set(['putRun', 'putInvocation', 'saveStep', 'putTask', 'appendJournal', 'writeFile', 'writeFileChecked', 'deleteFile']);

/** The store, with every write it is asked for added to `writes` (method and argument). */
function recordingStore(store: RunStore, writes: { method: string; argument: unknown }[]): RunStore {
  return storeWith(store, (name, method) =>
    WRITES.has(name)
      ? (...args: unknown[]) => {
          writes.push({ method: name, argument: args[0] });
          return method(...args);
        }
      : undefined,
  );
}

type RoundCall = { name: string; arguments: Record<string, unknown> };
const LIST: RoundCall = { name: 'workspace_list', arguments: {} };
const READ: RoundCall = { name: 'workspace_read', arguments: { path: 'scratch/plan.md' } };
const writeNote = (round: number): RoundCall => ({ name: 'workspace_write', arguments: { path: `scratch/note-${round}.md`, content: 'A note.' } });

/** The writes of one turn whose root makes `callsOfRound(round)` for `rounds` rounds, then answers. */
async function writesOfTurn(rounds: number, callsOfRound: (round: number) => RoundCall[] = () => [LIST]): Promise<{ writes: { method: string; argument: unknown }[]; runId: string }> {
  let round = 0;
  harness.server.script((request) => {
    if (!isRoot(request)) return undefined;
    round += 1;
    return round <= rounds ? { toolCalls: callsOfRound(round) } : { content: 'The hall is empty.' };
  });
  const writes: { method: string; argument: unknown }[] = [];
  // Events never wait out the idle time here, so every write is one the run asked for.
  const runtime = harness.newRuntime(recordingStore(harness.store, writes), { journalIdleMs: 60_000 });
  const outcome = await harness.startOn(runtime);
  expect(outcome.reply).toBe('The hall is empty.');
  return { writes, runId: outcome.run.id };
}

test('a round that only reads is one write, the turn with its tool results, its journal events carried by it', async () => {
  harness = await startHarness();

  const short = await writesOfTurn(2);
  harness.server.reset();
  const long = await writesOfTurn(6);
  harness.server.reset();
  const twoReadsARound = await writesOfTurn(6, () => [LIST, READ]);

  // Four more rounds: four more steps, each the turn and its result, and nothing else.
  expect(long.writes.length - short.writes.length).toBe(4);
  // Two calls that only read in one turn are stored in the same step as one.
  expect(twoReadsARound.writes.length).toBe(long.writes.length);
  const journal = await harness.journal(long.runId);
  expect(journal.map((event) => event.seq)).toEqual(journal.map((_, index) => index + 1));
  const roundEvents = journal.map((event) => event.type).filter((type) => type.startsWith('model-call') || type.startsWith('tool-call'));
  const oneRound = ['model-call-start', 'model-call-end', 'tool-call-start', 'tool-call-end'];
  expect(roundEvents).toEqual([...Array.from({ length: 6 }, () => oneRound).flat(), 'model-call-start', 'model-call-end']);
});

test('a round that writes is two writes: its turn is stored before the tool runs, then the result', async () => {
  harness = await startHarness();

  const short = await writesOfTurn(2, (round) => [writeNote(round)]);
  harness.server.reset();
  const long = await writesOfTurn(6, (round) => [writeNote(round)]);
  // Reading beside a write does not change it: the turn is stored before any of its calls runs.
  harness.server.reset();
  const readAndWrite = await writesOfTurn(6, (round) => [LIST, writeNote(round)]);

  // Four more rounds: four more turns, four more files, four more results.
  expect(long.writes.length - short.writes.length).toBe(3 * 4);
  // Each file is written between its turn's step and its result's step.
  const methods = long.writes.map((write) => write.method);
  const files = methods.flatMap((method, index) => (method === 'writeFileChecked' ? [index] : []));
  expect(files).toHaveLength(6);
  for (const index of files) expect([methods[index - 1], methods[index + 1]]).toEqual(['saveStep', 'saveStep']);
  expect(readAndWrite.writes.length).toBe(long.writes.length + 6);
});

test('a runtime that dies before a reading round is stored asks the model again and replies as it would have', async () => {
  harness = await startHarness();
  harness.server.script((request) => {
    if (!isRoot(request)) return undefined;
    return request.toolResultCount < 3 ? { toolCalls: [LIST] } : { content: 'The hall is empty.' };
  });
  // Dies as the first round's step is written: its turn and result are stored together or not at all.
  const hasToolResult = (step: RunStep) => step.invocations?.some((invocation) => invocation.messages.some((message) => message.role === 'tool')) ?? false;
  const dying = storeDyingAtStep(harness.store, hasToolResult);
  const created = harness.nextEvent((event) => event.type === 'run-start');
  void harness.startOn(harness.newRuntime(dying.store));
  const { runId } = await created;
  await dying.frozen;
  const stored = await rootHistory(harness.store);

  const actual = await harness.newRuntime().resumeRun(runId, { resolveModel: harness.resolveModel });

  // Nothing of the round was stored: no turn without its result.
  expect(stored.filter((message) => message.role === 'tool')).toHaveLength(0);
  expect(stored.some((message) => 'tool_calls' in message)).toBe(false);
  expect(actual.reply).toBe('The hall is empty.');
  const history = await rootHistory(harness.store);
  expect(history.filter((message) => message.role === 'tool')).toHaveLength(3);
  expect(history.filter((message) => 'tool_calls' in message)).toHaveLength(3);
  // The lost round's call, then the resumed run's three rounds and its answer.
  expect(harness.server.requests.filter(isRoot)).toHaveLength(5);
});

test('the delegate calls of one turn are stored in one step, with their tasks and children, before any of them starts', async () => {
  harness = await startHarness({ defaults: { maxRunningChildren: 3 } });
  const calls = [delegate('scene-critic', 'Hall'), delegate('scene-critic', 'Duke'), delegate('continuity-checker', 'Sword')];
  harness.server.queue(isRoot, { toolCalls: calls }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'All three are in.' });
  harness.server.script((request) => (isRoot(request) ? undefined : { toolCalls: [{ name: 'task_return', arguments: { summary: 'Done.' } }] }));
  const writes: { method: string; argument: unknown }[] = [];
  const runtime = harness.newRuntime(recordingStore(harness.store, writes));

  const outcome = await harness.startOn(runtime);

  expect(outcome.reply).toBe('All three are in.');
  const creating = writes.findIndex((write) => write.method === 'saveStep' && ((write.argument as RunStep).tasks?.length ?? 0) === 3);
  expect(creating).toBeGreaterThanOrEqual(0);
  const step = writes[creating]?.argument as RunStep;
  expect(step.tasks?.map((task) => task.status)).toEqual(['queued', 'queued', 'queued']);
  expect(step.invocations?.map((invocation) => invocation.kind)).toEqual(['root', 'subagent', 'subagent', 'subagent']);
  const root = step.invocations?.[0];
  expect(root?.messages.filter((message) => message.role === 'tool')).toHaveLength(3);
  // No task record was written before that step, and none of the children started before it.
  const earlier = writes.slice(0, creating);
  expect(earlier.some((write) => write.method === 'putTask' || ((write.argument as RunStep).tasks?.length ?? 0) > 0)).toBe(false);
  const journal = await harness.journal(outcome.run.id);
  expect(journal.filter((event) => event.type === 'task-start')).toHaveLength(3);
});

test('a runtime that dies as the delegate step is stored resumes with all three tasks, each run once', async () => {
  harness = await startHarness();
  const calls = [delegate('scene-critic', 'Hall'), delegate('scene-critic', 'Duke'), delegate('continuity-checker', 'Sword')];
  harness.server.queue(isRoot, { toolCalls: calls }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'All three are in.' });
  harness.server.script((request) => (isRoot(request) ? undefined : { toolCalls: [{ name: 'task_return', arguments: { summary: 'Done.' } }] }));
  const dying = storeDyingWhen(harness.store, async (store) => (await rootHistory(store)).filter((message) => message.role === 'tool').length === 3);
  const created = harness.nextEvent((event) => event.type === 'run-start');
  void harness.startOn(harness.newRuntime(dying.store));
  const { runId } = await created;
  await dying.frozen;
  const stored = await harness.store.listTasks(runId);

  const actual = await harness.newRuntime().resumeRun(runId, { resolveModel: harness.resolveModel });

  expect(stored.map((task) => task.status)).toEqual(['queued', 'queued', 'queued']);
  expect(actual.reply).toBe('All three are in.');
  expect(await harness.store.listTasks(runId)).toHaveLength(3);
  expect(harness.server.requests.filter((request) => !isRoot(request))).toHaveLength(3);
  expect(harness.server.requests.filter(isCritic)).toHaveLength(2);
});

/** A store whose first step that ends a run `completed` fails, as a full disk would. */
function storeFailingTheRunEnd(store: RunStore): RunStore {
  return storeFailingStep(store, (step) => step.run?.status === 'completed');
}

/** The store, where the first step that `fails` matches is refused, as a full disk would. */
function storeFailingStep(store: RunStore, fails: (step: RunStep) => boolean): RunStore {
  let failed = false;
  return storeWith(store, (name, method) =>
    name === 'saveStep'
      ? (step) => {
          if (!failed && fails(step as RunStep)) {
            failed = true;
            return Promise.reject(new Error('The disk is full.'));
          }
          return method(step);
        }
      : undefined,
  );
}

test('a run without helpers stores its root’s end with its own, in one write after the answer’s turn', async () => {
  harness = await startHarness();
  harness.server.script((request) => (isRoot(request) ? { content: 'The hall is empty.' } : undefined));
  const writes: { method: string; argument: unknown }[] = [];
  const runtime = harness.newRuntime(recordingStore(harness.store, writes), { journalIdleMs: 60_000 });

  const outcome = await harness.startOn(runtime);

  const steps = writes.filter((write) => write.method === 'saveStep').map((write) => write.argument as RunStep);
  const ending = steps.filter((step) => step.invocations?.some((invocation) => invocation.kind === 'root' && invocation.status === 'completed'));
  expect(ending).toHaveLength(1);
  expect(ending[0]?.run?.status).toBe('completed');
  expect(steps.at(-1)).toBe(ending[0]);
  const stored = await harness.store.getInvocation(outcome.run.rootInvocationId);
  expect(stored?.status).toBe('completed');
  const journal = await harness.journal(outcome.run.id);
  expect(journal.map((event) => event.type).slice(-3)).toEqual(['model-call-end', 'invocation-end', 'run-end']);
});

test('when the write that ends a run fails, the page still gets the answer already stored, and the run resumes to that same reply', async () => {
  harness = await startHarness();
  harness.server.script((request) => (isRoot(request) ? { content: 'The hall is empty.' } : undefined));

  const outcome = await harness.startOn(harness.newRuntime(storeFailingTheRunEnd(harness.store)));
  const stored = await harness.store.getRun(outcome.run.id);
  const calls = harness.server.requests.length;
  const resumed = await harness.newRuntime().resumeRun(outcome.run.id, { resolveModel: harness.resolveModel });

  // The reply went out while the run's end was written: it is the answer the root's history holds.
  expect(outcome.reply).toBe('The hall is empty.');
  expect(stored?.status).toBe('running');
  expect((await harness.store.getInvocation(outcome.run.rootInvocationId))?.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'The hall is empty.' });
  // A worker that takes the run up again records the same reply, and asks the model nothing.
  expect(resumed.reply).toBe('The hall is empty.');
  expect(resumed.run.status).toBe('completed');
  expect(harness.server.requests).toHaveLength(calls);
});

test('a runtime that dies after the answer’s turn, before the run’s end, resumes to the same reply without another call', async () => {
  harness = await startHarness();
  harness.server.script((request) => (isRoot(request) ? { content: 'The hall is empty.' } : undefined));
  const dying = storeDyingWhen(harness.store, async (store) => (await rootHistory(store)).some((message) => message.role === 'assistant' && message.content === 'The hall is empty.'));
  const created = harness.nextEvent((event) => event.type === 'run-start');
  void harness.startOn(harness.newRuntime(dying.store));
  const { runId } = await created;
  await dying.frozen;
  const calls = harness.server.requests.length;

  const actual = await harness.newRuntime().resumeRun(runId, { resolveModel: harness.resolveModel });

  expect(actual.reply).toBe('The hall is empty.');
  expect(actual.run.status).toBe('completed');
  expect(harness.server.requests).toHaveLength(calls);
  expect((await harness.store.getInvocation(actual.run.rootInvocationId))?.status).toBe('completed');
});

test("a helper's result is one step with the task pointing at it, its end one more with the return's result, and what its calls ran with rides along", async () => {
  harness = await startHarness();
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'Read.' });
  harness.server.queue(isCritic, { toolCalls: [{ name: 'task_return', arguments: { summary: 'Keep the rain.' } }] });
  const writes: { method: string; argument: unknown }[] = [];
  const runtime = harness.newRuntime(recordingStore(harness.store, writes));

  const outcome = await harness.startOn(runtime);

  expect(outcome.reply).toBe('Read.');
  // No task record is written on its own: each rides with a step.
  expect(writes.filter((write) => write.method === 'putTask')).toHaveLength(0);
  const steps = writes.filter((write) => write.method === 'saveStep').map((write) => write.argument as RunStep);
  const result = steps.findIndex((step) => step.files?.some((file) => file.path.startsWith('agent-results/')));
  expect(steps[result]?.files?.map((file) => file.path.split('/')[0])).toEqual(['agent-results', 'summaries']);
  expect(steps[result]?.tasks?.[0]?.resultRef).toMatch(/^agent-results\//);
  const end = steps[result + 1];
  expect(end?.tasks?.[0]?.status).toBe('completed');
  expect(end?.invocations?.[0]?.messages.at(-1)).toMatchObject({ role: 'tool' });
  const [task] = await harness.store.listTasks(outcome.run.id);
  expect(task?.ranWith?.model).toBeDefined();
  const child = await harness.store.getInvocation(task?.childInvocationId ?? '');
  expect(child?.status).toBe('completed');
  expect(child?.messages.at(-1)).toMatchObject({ role: 'tool' });
});

test('a run whose first step cannot be written fails and gives no reply, though its first model call went out beside that write', async () => {
  harness = await startHarness();
  harness.server.script((request) => (isRoot(request) ? { content: 'The hall is empty.', delayMs: 30 } : undefined));
  const failing = storeFailingStep(harness.store, (step) => step.run?.status === 'running' && (step.files?.length ?? 0) > 0);

  const outcome = await harness.startOn(harness.newRuntime(failing)).then(
    (value) => ({ status: value.run.status, reply: value.reply, fallback: value.run.fallback?.code }),
    (error: unknown) => ({ status: 'rejected', reply: '', fallback: undefined, error }),
  );

  // The page falls back to its own model: the run failed (or could not even record that), never replied.
  expect(outcome.reply).toBe('');
  expect(outcome.status === 'failed' || outcome.status === 'rejected').toBe(true);
  if (outcome.status === 'failed') expect(outcome.fallback).toBeDefined();
  expect((await harness.store.listRuns()).filter((run) => run.status === 'completed')).toHaveLength(0);
});
