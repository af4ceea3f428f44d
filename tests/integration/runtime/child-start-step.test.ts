import { afterEach, expect, test } from 'vitest';
import type { RunStep } from '../../../src/store/run-store';
import { delegate, isCritic, isRoot, startHarness, storeDyingAtStep, storeWith, taskHistory, type Harness } from './runtime-harness';

/**
 * A helper's start (its task and invocation marked running, with their journal events) is written
 * beside its first model call, not before it (issue 23: six helpers' first calls no longer queue
 * behind six start writes). The helper's first write of its own waits for that start, so what is
 * stored keeps its order, and a start that cannot be written is the helper's failure.
 */
let harness: Harness;
afterEach(async () => {
  await harness.close();
});

const isStartStep = (step: RunStep): boolean =>
  (step.tasks ?? []).some((task) => task.status === 'running') && (step.invocations ?? []).some((invocation) => invocation.kind === 'subagent' && invocation.status === 'running' && invocation.usage.rounds === 0);

/** The root delegates a critique, awaits it and answers; the critic returns at once (both scripted by what they have seen, so a stopped runtime's calls take nothing from the resumed one's). */
function scriptCritiqueTurn(): void {
  harness.server.script((request) => {
    if (isCritic(request)) return { toolCalls: [{ name: 'task_return', arguments: { summary: 'Keep the rain.' } }] };
    if (!isRoot(request)) return undefined;
    if (request.toolResultCount === 0) return { toolCalls: [delegate('scene-critic', 'Critique')] };
    if (request.toolResultCount === 1) return { toolCalls: [{ name: 'agent_await', arguments: {} }] };
    return { content: request.allText.includes('Keep the rain.') ? 'With the critique.' : 'Without it.' };
  });
}

test("a helper's first model call goes out while its start is still being written, and its records keep their order", async () => {
  harness = await startHarness();
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  // Held until the helper's first request reaches the model, or 2 s (a runtime that waited for it would get there only then).
  setTimeout(release, 2_000).unref();
  let calledWhileHeld: boolean | undefined;
  let held = false;
  const holding = storeWith(harness.store, (name, method) =>
    name === 'saveStep'
      ? (step) => {
          if (!isStartStep(step as RunStep)) return method(step);
          held = true;
          return released.then(() => {
            held = false;
            return method(step);
          });
        }
      : undefined,
  );
  harness.server.script((request) => {
    if (isCritic(request)) {
      calledWhileHeld ??= held;
      release();
    }
    return undefined;
  });
  scriptCritiqueTurn();

  const outcome = await harness.startOn(harness.newRuntime(holding));

  expect(calledWhileHeld).toBe(true);
  expect(outcome.reply).toBe('With the critique.');
  const [task] = await harness.store.listTasks(outcome.run.id);
  expect(task?.status).toBe('completed');
  const journal = await harness.journal(outcome.run.id);
  expect(journal.map((event) => event.seq)).toEqual(journal.map((_, index) => index + 1));
  const ofTask = journal.filter((event) => event.taskId === task?.id).map((event) => event.type);
  expect(ofTask.indexOf('task-start')).toBeLessThan(ofTask.indexOf('model-call-start'));
  expect(ofTask.at(-1)).toBe('task-end');
});

test('a helper whose start cannot be written fails the run as any store failure does, and nothing it answered is stored', async () => {
  harness = await startHarness();
  scriptCritiqueTurn();
  let refused = false;
  const failing = storeWith(harness.store, (name, method) =>
    name === 'saveStep'
      ? (step) => {
          if (refused || !isStartStep(step as RunStep)) return method(step);
          refused = true;
          return Promise.reject(new DOMException('The disk is full.', 'QuotaExceededError'));
        }
      : undefined,
  );

  const outcome = await harness.startOn(harness.newRuntime(failing)).then(
    (value) => ({ status: value.run.status, reply: value.reply, runId: value.run.id }),
    () => ({ status: 'rejected', reply: '', runId: undefined }),
  );

  // The page falls back to its own model: the run failed (or could not even record that), never replied.
  expect(refused).toBe(true);
  expect(outcome.reply).toBe('');
  expect(['failed', 'rejected']).toContain(outcome.status);
  // Its first call went out beside the refused write; what it answered was never acted on.
  expect(harness.server.requests.filter(isCritic).length).toBeLessThanOrEqual(1);
  const [run] = await harness.store.listRuns();
  const history = run ? await taskHistory(harness.store, run.id, 'scene-critic') : [];
  expect(history.filter((message) => message.role === 'tool')).toHaveLength(0);
  const tasks = run ? await harness.store.listTasks(run.id) : [];
  // The task failed with the store's words (its result says so); nothing it did counts as done.
  expect(tasks.map((task) => [task.status, task.error?.message])).toEqual([['failed', 'The disk is full.']]);
  expect((await harness.store.listRuns()).filter((stored) => stored.status === 'completed')).toHaveLength(0);
});

test('a runtime that dies as a helper’s start is written resumes the helper once, to the same reply', async () => {
  harness = await startHarness();
  scriptCritiqueTurn();
  const dying = storeDyingAtStep(harness.store, isStartStep);
  const created = harness.nextEvent((event) => event.type === 'run-start');
  void harness.startOn(harness.newRuntime(dying.store));
  const { runId } = await created;
  await dying.frozen;
  const [stored] = await harness.store.listTasks(runId);

  const actual = await harness.newRuntime().resumeRun(runId, { resolveModel: harness.resolveModel });

  // The start was never written: the task was still queued, and the resumed runtime started it.
  expect(stored?.status).toBe('queued');
  expect(actual.reply).toBe('With the critique.');
  const tasks = await harness.store.listTasks(runId);
  expect(tasks.map((task) => task.status)).toEqual(['completed']);
  const journal = await harness.journal(runId);
  expect(journal.filter((event) => event.type === 'task-start')).toHaveLength(1);
  expect(journal.filter((event) => event.type === 'task-end')).toHaveLength(1);
});
