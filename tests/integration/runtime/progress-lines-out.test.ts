import { afterEach, expect, test } from 'vitest';
import type { PromptSnapshot } from '../../../src/hosts/prompt-snapshot';
import { isProgressLine } from '../../../src/runtime/progress-lines';
import { delegate, isCritic, isRoot, snapshot, startHarness, testProfiles, type Harness } from './runtime-harness';

let harness: Harness;
afterEach(async () => {
  await harness.close();
});

const used = (total: number) => ({ usage: { prompt_tokens: total - 10, completion_tokens: 10, total_tokens: total } });
const taskReturn = (summary: string) => ({ toolCalls: [{ name: 'task_return', arguments: { summary } }] });
const USER_THINKING = '<think>\nscene-critic · is the duke lying? — done\nI am not sure yet.\n</think>';

/** Every progress line the real writers make in one run: tasks started and ended, a review, the token limit. */
async function progressOfARun(): Promise<string[]> {
  harness = await startHarness({ profiles: testProfiles({ critic: { review: 'ask' } }), defaults: { maxRunTokens: 1_000 } });
  harness.server.queue(
    isRoot,
    { toolCalls: [delegate('scene-critic', 'Critique'), delegate('continuity-checker', 'Check')], ...used(300) },
    { toolCalls: [{ name: 'agent_await', arguments: {} }], ...used(800) },
    { content: 'The duke yields.', ...used(10) },
  );
  harness.server.queue(isCritic, taskReturn('Keep the rain.'));
  harness.server.queue((request) => request.systemText.includes('[[checker]]'), taskReturn('No contradiction.'));
  const reviewed = harness.nextEvent((event) => event.type === 'review-start').then((event) => harness.runtime.reviewTask(event.runId, event.taskId as string, { kind: 'approve' }));
  await harness.start();
  await reviewed;
  return [...harness.progress];
}

test('every progress line the runtime writes is recognised as Retinue’s, and a host that sends them back does not get them to any model', async () => {
  const lines = await progressOfARun();
  expect(lines.some((line) => line.endsWith('— started'))).toBe(true);
  expect(lines.some((line) => line.includes('result waits for your review'))).toBe(true);
  expect(lines.some((line) => line.startsWith('Token limit reached ('))).toBe(true);
  expect(lines.filter((line) => !isProgressLine(line))).toEqual([]);

  // The page kept them: in a reasoning field, in a <think> block before the reply, and as plain text.
  const block = lines.join('\n');
  const sentBack: PromptSnapshot = {
    ...snapshot,
    messages: [
      ...snapshot.messages.slice(0, 2),
      { role: 'assistant', content: `<think>\n${block}\n</think>\nThe hall is silent.`, reasoning_content: `${block}\n` },
      { role: 'user', content: `She draws her sword. ${USER_THINKING}` },
      { role: 'assistant', content: `${block}\nThe duke steps back.` },
      { role: 'user', content: 'And then?' },
    ],
  };
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'On it goes.' });
  harness.server.queue(isCritic, { toolCalls: [{ name: 'chat_read', arguments: {} }] }, taskReturn('Fine.'));
  const reviewed = harness.nextEvent((event) => event.type === 'review-start').then((event) => harness.runtime.reviewTask(event.runId, event.taskId as string, { kind: 'approve' }));
  const second = await harness.start({ snapshot: sentBack });
  await reviewed;

  const before = harness.server.requests.length;
  const seen = harness.server.requests.slice(-6).map((request) => JSON.stringify(request.body.messages));
  expect(before).toBeGreaterThan(0);
  for (const text of seen) {
    for (const line of lines.filter((candidate) => !candidate.includes('is the duke lying'))) expect(text).not.toContain(line);
  }
  const rootFirst = harness.server.requests.filter(isRoot).at(-3);
  const messages = rootFirst?.body.messages ?? [];
  expect(messages.some((message) => message.role === 'assistant' && message.content === 'The hall is silent.')).toBe(true);
  expect(messages.some((message) => message.role === 'assistant' && message.content === 'The duke steps back.')).toBe(true);
  // The user's own <think> text stays, even where it looks like a progress line.
  expect(JSON.stringify(messages)).toContain(JSON.stringify(USER_THINKING).slice(1, -1));
  // The critic's chat.read reads the same cleaned conversation.
  const criticRead = harness.server.requests.filter(isCritic).at(-1);
  expect(JSON.stringify(criticRead?.body.messages)).toContain('The duke steps back.');
  expect(second.run.status).toBe('completed');
});
