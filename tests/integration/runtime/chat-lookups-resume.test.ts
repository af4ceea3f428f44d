import { afterEach, expect, test } from 'vitest';
import type { PromptSnapshot } from '../../../src/hosts/prompt-snapshot';
import type { RunStore } from '../../../src/store/run-store';
import { storyMessages } from '../../fixtures/chats/lighthouse-story';
import { delegate, isChecker, isRoot, startHarness, storeDyingWhen, taskHistory, testProfiles, type Harness } from './runtime-harness';

/**
 * A worker killed in a turn of two chat lookups, once the first was answered and journaled: on
 * resume answered calls keep their results and are not run again, so what the task looked up is
 * never listed twice (a lookup whose event was not yet written when the worker stopped is missing,
 * as its `tool-call-end` is).
 */
let harness: Harness;
afterEach(async () => {
  await harness.close();
});

const snapshot: PromptSnapshot = { messages: storyMessages(), stream: false };

/** The search is answered and journaled; the read has not run yet. */
async function searchRecorded(store: RunStore): Promise<boolean> {
  const [run] = await store.listRuns();
  return run !== undefined && (await store.readJournal(run.id)).some((event) => event.type === 'chat-searched');
}

test('a restart once a search was answered and journaled: the search is not run nor listed again', async () => {
  harness = await startHarness({ profiles: testProfiles({ checker: { tools: { allow: ['chat.search', 'chat.read_messages'] } } }) });
  harness.server.queue(isRoot, { toolCalls: [delegate('continuity-checker', 'Check the key')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'Done.' });
  harness.server.queue(
    isChecker,
    {
      toolCalls: [
        { id: 'call_search', name: 'chat_search', arguments: { query: 'silver key' } },
        { id: 'call_read', name: 'chat_read_messages', arguments: { from: 3, to: 3 } },
      ],
    },
    { toolCalls: [{ name: 'task_return', arguments: { summary: 'Found in #3.' } }] },
  );
  const dying = storeDyingWhen(harness.store, searchRecorded);
  const created = harness.nextEvent((event) => event.type === 'run-start');
  void harness.startOn(harness.newRuntime(dying.store), { snapshot });
  const { runId } = await created;
  await dying.frozen;

  const actual = await harness.newRuntime().resumeRun(runId, { resolveModel: harness.resolveModel });

  expect(actual.reply).toBe('Done.');
  const journal = await harness.journal(runId);
  const searches = journal.filter((event) => event.type === 'chat-searched');
  const reads = journal.filter((event) => event.type === 'chat-messages-read');
  expect(searches.map((event) => event.data)).toEqual([expect.objectContaining({ query: 'silver key', found: 2 })]);
  // The read ran alongside the search's journal write; its own event may not have been written
  // before the worker stopped (the journal is written off the loop's path), but never twice.
  expect(reads.length).toBeLessThanOrEqual(1);
  const results = (await taskHistory(harness.store, runId, 'continuity-checker')).filter((message) => message.role === 'tool');
  expect(results.slice(0, 2).map((message) => String(message.content).split('\n')[0])).toEqual(['2 messages hold "silver", "key", newest first:', '### #3 assistant']);
});
