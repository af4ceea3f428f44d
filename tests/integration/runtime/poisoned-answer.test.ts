import { afterEach, beforeEach, expect, test } from 'vitest';
import { isRoot, startHarness, type Harness } from './runtime-harness';

/**
 * Issue 21: an answer shaped to make a backtracking reader spin (the GLM payload at a size that took
 * hours, long whitespace, thousands of calls) is read at once, streamed and not, and the run goes on.
 */
let harness: Harness;
beforeEach(async () => {
  harness = await startHarness();
});
afterEach(async () => {
  await harness.close();
});

const POISONED = [
  ['the GLM payload', '<tool_call>agent_list' + '<arg_key>k</arg_key><arg_value>v</arg_value>'.repeat(2_000) + '<arg_key></tool_call>'],
  ['100 KB of newlines', 'Hello.' + '\n'.repeat(100_000) + 'x'],
  ['4,000 unclosed Hermes openings', '<tool_call>{"name": "agent_list", '.repeat(4_000)],
] as const;

test.each(POISONED)('a root that answers with %s still ends its run in well under a second of reading', async (_name, content) => {
  harness.server.queue(isRoot, { content, slowly: { pieces: 50, delayMs: 1 } }, { content: 'The inn is quiet tonight.' });

  const started = Date.now();
  const actual = await harness.start({ onReplyStream: () => undefined });

  expect(actual.run.status).toBe('completed');
  // Generous for a busy 2-core machine; the payload took hours before (issue 21).
  expect(Date.now() - started).toBeLessThan(5_000);
});
