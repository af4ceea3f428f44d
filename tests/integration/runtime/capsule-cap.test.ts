import { afterEach, expect, test } from 'vitest';
import { delegate, isCritic, isRoot, startHarness, type Harness } from './runtime-harness';

/**
 * What a parent reads of a long result is capped by default at 8,000 characters (DESIGN §11), with a
 * pointer to the whole result: the root's context, and the run's spend, stay small however much a
 * helper writes. Real SDK against the scripted server; the cap is the runtime's own default.
 */
let harness: Harness;
afterEach(async () => {
  await harness.close();
});

test("a helper's long result reaches the root capped at 8,000 characters, pointing to the whole of it", async () => {
  harness = await startHarness();
  const longSummary = 'The duel scene drags. '.repeat(800);
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'The reply.' });
  harness.server.queue(isCritic, { toolCalls: [{ name: 'task_return', arguments: { summary: longSummary } }] });

  const actual = await harness.start();

  expect(actual.run.status).toBe('completed');
  const lastRootRequest = harness.server.requests.filter(isRoot).at(-1);
  const awaited = (lastRootRequest?.body.messages ?? []).filter((message) => message.role === 'tool').map((message) => String(message.content)).at(-1) ?? '';
  expect(awaited).toContain('The duel scene drags.');
  expect(awaited.length).toBeLessThanOrEqual(8_000 + 200);
  expect(awaited).toContain('cut at 8,000 characters; read `summaries/agents/scene-critic/result.md` for the rest');
  // The whole result is where the pointer says.
  const file = await harness.store.readFile(actual.run.id, 'summaries/agents/scene-critic/result.md');
  expect(file?.content).toContain(longSummary.trim());
});
