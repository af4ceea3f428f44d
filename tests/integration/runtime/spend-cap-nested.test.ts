import { afterEach, expect, test } from 'vitest';
import { delegate, isChecker, isCritic, isRoot, startHarness, testProfiles, type Harness } from './runtime-harness';

/**
 * The spend cap reaches every level: a mid-level child (the scene critic, allowed nested delegation)
 * whose own task still works must wrap up at once, not wait for that task and keep calling the
 * model as the root does. Real SDK against the scripted server.
 */
let harness: Harness;
afterEach(async () => {
  await harness.close();
});

const used = (total: number) => ({ usage: { prompt_tokens: total - 10, completion_tokens: 10, total_tokens: total } });
const returns = (summary: string) => ({ toolCalls: [{ name: 'task_return', arguments: { summary } }] });

test('at the spend cap a mid-level child with a task of its own still running wraps up at its next call', async () => {
  harness = await startHarness({
    defaults: { maxRunTokens: 1_000 },
    profiles: testProfiles({
      critic: {
        tools: { allow: ['agent.list', 'agent.delegate', 'agent.await', 'agent.cancel', 'workspace.list'] },
        delegation: { canDelegate: true, allowNestedDelegation: true, allowedAgents: ['continuity-checker'] },
      },
    }),
  });
  harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')], ...used(100) }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'The reply.' });
  harness.server.queue(
    isCritic,
    { toolCalls: [delegate('continuity-checker', 'Check names')], ...used(100) },
    // While this call runs, the checker's first call takes the run past 1,000 tokens.
    { toolCalls: [{ name: 'workspace_list', arguments: {} }], delayMs: 500 },
    returns('What the critic had at the limit.'),
    returns('Too late.'),
  );
  // The checker's wrap-up comes late: it is still working when the critic's next round starts.
  harness.server.queue(isChecker, { toolCalls: [{ name: 'workspace_list', arguments: {} }], ...used(900) }, { ...returns('Checked.'), delayMs: 1_500 });

  const actual = await harness.start();

  expect(actual.run.status).toBe('completed');
  const criticRequests = harness.server.requests.filter(isCritic);
  // Two calls, then its wrap-up: only task_return offered, told of the limit.
  expect(criticRequests).toHaveLength(3);
  expect(criticRequests[2]?.toolNames).toEqual(['task_return']);
  expect(criticRequests[2]?.allText).toContain('the user set a limit of 1,000 tokens for one turn');
  const tasks = await harness.store.listTasks(actual.run.id);
  expect(tasks.find((task) => task.workspaceKey === 'scene-critic')).toMatchObject({ status: 'completed' });
});
