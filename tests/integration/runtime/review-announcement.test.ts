import { afterEach, beforeEach, expect, test } from 'vitest';
import { delegate, isCritic, isRoot, startHarness, testProfiles, type Harness } from './runtime-harness';

/**
 * A result that waits for the user's review is not news for its parent yet: "Meanwhile finished" is
 * not said of it (the root would call agent_await early and hear it still waits); once the user
 * approves, the next tool result announces it. Real SDK against the scripted server.
 */
let harness: Harness;
beforeEach(async () => {
  harness = await startHarness({ profiles: testProfiles({ critic: { review: 'ask' } }) });
});
afterEach(async () => {
  await harness.close();
});

test('a result awaiting review is not announced as finished; after approval it is', async () => {
  const asked = harness.nextEvent((event) => event.type === 'review-start');
  const listed = harness.nextEvent((event) => event.type === 'tool-call-end' && event.data['tool'] === 'agent.list');
  const approved = (async () => {
    const event = await asked;
    await listed;
    return harness.runtime.reviewTask(event.runId, event.taskId as string, { kind: 'approve' });
  })();
  harness.queueLater(
    isRoot,
    { toolCalls: [delegate('scene-critic', 'Critique')] },
    // Busy with something else while the critic's result waits for the user.
    async () => (await asked, { toolCalls: [{ name: 'agent_list', arguments: {} }] }),
    async () => (await approved, { toolCalls: [{ name: 'agent_list', arguments: {} }] }),
    { toolCalls: [{ name: 'agent_await', arguments: {} }] },
    { content: 'Done.' },
  );
  harness.server.queue(isCritic, { toolCalls: [{ name: 'task_return', arguments: { summary: 'The duel lacks stakes.' } }] });

  const actual = await harness.start();

  expect(actual.reply).toBe('Done.');
  expect(await approved).toMatchObject({ ok: true });
  // What the root read after each call: the chat, then each tool result.
  const toolResults = harness.server.requests.filter(isRoot).map((request) => request.lastMessageText);
  const [, , whileAwaiting, afterApproval] = toolResults;
  expect(whileAwaiting).not.toContain('Meanwhile finished');
  expect(afterApproval).toContain('Meanwhile finished: `scene-critic` (approved by the user). Call agent_await to read its result.');
  expect(toolResults.at(-1)).toContain('The duel lacks stakes.');
});
