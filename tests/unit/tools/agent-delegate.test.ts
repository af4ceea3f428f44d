import { expect, test } from 'vitest';
import { agentDelegateParameters } from '../../../src/tools/agent-delegate';

test('a task brief too long for a child is refused with where to put the material instead', () => {
  const actual = agentDelegateParameters.safeParse({ agentId: 'critic', task: { title: 'T', objective: 'O', context: 'x'.repeat(50_000) } });

  expect(actual.success).toBe(false);
  expect(actual.error?.issues[0]?.message).toContain('write long material to a workspace file such as summaries/brief.md and tell the agent to read it as summaries/parent/brief.md');
});

test('context and expected output may be text or an object', () => {
  const actual = agentDelegateParameters.safeParse({
    agentId: 'critic',
    task: { title: 'T', objective: 'O', context: { scene: 'duel' }, expectedOutput: 'A list.' },
    budget: { maxRounds: 2 },
  });

  expect(actual.success).toBe(true);
});
