import { IDBObjectStore } from 'fake-indexeddb';
import { afterEach, expect, test } from 'vitest';
import type { PromptSnapshot } from '../../../src/hosts/prompt-snapshot';
import type { JournalEvent } from '../../../src/records/journal';
import { openRunStore } from '../../../src/store/idb-run-store';
import type { RunStore } from '../../../src/store/run-store';
import { uniqueDatabaseName } from '../../support/record-builders';
import { writeVersion1Database } from '../../support/version-1-database';
import { delegate, hasToolResult, isCritic, isRoot, startHarness, storeDyingWhen, taskHistory, testProfiles, type Harness } from './runtime-harness';

let harness: Harness;
const opened: RunStore[] = [];
afterEach(async () => {
  await harness.close();
  for (const store of opened.splice(0)) store.close();
});

test('a run caught mid-flight in a version-1 store resumes after the upgrade, keeping what its child did', async () => {
  harness = await startHarness();
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, (request) => ({
    content: request.allText.includes('Critic says A.') ? 'With the critique.' : 'Without it.',
  }));
  harness.server.queue(
    isCritic,
    { toolCalls: [{ name: 'workspace_write', arguments: { path: 'summaries/notes.md', content: 'The duke lies.' } }] },
    (request) => ({ toolCalls: [{ name: 'task_return', arguments: { summary: request.allText.includes('summaries/notes.md') ? 'Critic says A.' : 'Critic forgot.' } }] }),
  );
  // The worker dies with the critic mid-task: its first tool result is stored, its return is not.
  const dying = storeDyingWhen(harness.store, async (store) => {
    const [run] = await store.listRuns();
    return run !== undefined && hasToolResult(await taskHistory(store, run.id, 'scene-critic'), 'summaries/notes.md');
  });
  const created = harness.nextEvent((event) => event.type === 'run-start');
  void harness.startOn(harness.newRuntime(dying.store));
  const { runId } = await created;
  await dying.frozen;

  // The same run as version 1 of the store kept it: every history inline in its invocation.
  const name = uniqueDatabaseName();
  await writeVersion1Database(indexedDB, name, {
    runs: [(await harness.store.getRun(runId))!],
    invocations: await harness.store.listInvocations(runId),
    tasks: await harness.store.listTasks(runId),
    files: await harness.store.listFiles(runId),
    journal: await harness.store.readJournal(runId),
  });
  const upgraded = await openRunStore({ name });
  opened.push(upgraded);
  expect(await upgraded.listInvocations(runId)).toEqual(await harness.store.listInvocations(runId));

  const actual = await harness.newRuntime(upgraded).resumeRun(runId, { resolveModel: harness.resolveModel });

  expect(actual.reply).toBe('With the critique.');
  expect(harness.server.requests.filter(isCritic)).toHaveLength(2);
  const [task] = await upgraded.listTasks(runId);
  expect(task?.status).toBe('completed');
  expect((await upgraded.readJournal(runId)).filter((event: JournalEvent) => event.type === 'task-start')).toHaveLength(1);
});

/** Counts the characters (as JSON) of every record put into or added to fake-indexeddb until stopped. */
function countWrites(): { characters: () => number; stop: () => void } {
  const prototype = IDBObjectStore.prototype as unknown as Record<'put' | 'add', (...args: unknown[]) => unknown>;
  const originals = { put: prototype.put, add: prototype.add };
  let characters = 0;
  for (const method of ['put', 'add'] as const) {
    prototype[method] = function (this: unknown, value: unknown, ...rest: unknown[]) {
      characters += JSON.stringify(value).length;
      return originals[method].call(this, value, ...rest);
    };
  }
  return { characters: () => characters, stop: () => Object.assign(prototype, originals) };
}

test('an 8-round turn on a long chat writes the chat once, not once per message: at most 1.5× the chat and what the run added', async () => {
  const rounds = 8;
  harness = await startHarness({ profiles: testProfiles({ root: { tools: { allow: ['workspace.list'] }, delegation: { canDelegate: false, callable: false }, budget: { maxRounds: rounds + 2, maxToolCalls: rounds * 2 } } }) });
  harness.server.script((request) => {
    if (!isRoot(request)) return undefined;
    return request.toolResultCount < rounds - 1 ? { toolCalls: [{ name: 'workspace_list', arguments: {} }] } : { content: 'The keeper opens the door.' };
  });
  const line = 'The rain drums on the lighthouse roof while Mara climbs the stair. ';
  const chat: PromptSnapshot['messages'] = Array.from({ length: 60 }, (_, index) => ({ role: index % 2 === 0 ? 'user' : 'assistant', content: line.repeat(30) }));
  const snapshot: PromptSnapshot = { messages: [{ role: 'system', content: 'You are the narrator.' }, ...chat, { role: 'user', content: 'Mara knocks.' }] };
  const counter = countWrites();

  const outcome = await harness.start({ snapshot }).finally(counter.stop);

  expect(outcome.run.usage.rounds).toBe(rounds);
  const history = (await harness.store.getInvocation(outcome.run.rootInvocationId))?.messages ?? [];
  const chatCharacters = JSON.stringify(snapshot.messages).length;
  const added = JSON.stringify(history).length - chatCharacters;
  expect(counter.characters()).toBeLessThanOrEqual(1.5 * (chatCharacters + added));
});
