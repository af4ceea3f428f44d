import { afterEach, beforeEach, expect, test } from 'vitest';
import { isCritic, isRoot, startHarness, type Harness, delegateCritic } from './runtime-harness';

let harness: Harness;
beforeEach(async () => {
  harness = await startHarness();
});
afterEach(async () => {
  await harness.close();
});

/** The critic makes `mistake`, then returns; gives the tool result its mistake got. */
async function criticMistakeResult(mistake: { name: string; arguments: Record<string, unknown> | string }): Promise<string> {
  harness.server.queue(isRoot, { toolCalls: [delegateCritic] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'Done.' });
  harness.server.queue(isCritic, { toolCalls: [mistake] }, { toolCalls: [{ name: 'task_return', arguments: { summary: 'Recovered.' } }] });
  const actual = await harness.start();
  expect(actual.reply).toBe('Done.');
  const [task] = await harness.store.listTasks(actual.run.id);
  expect(task).toMatchObject({ status: 'completed', resultStatus: 'completed' });
  return harness.server.requests.filter(isCritic)[1]?.lastMessageText ?? '';
}

test('a child calling workspace.finish is told it cannot, and what it can use', async () => {
  const actual = await criticMistakeResult({ name: 'workspace_finish', arguments: {} });

  expect(actual).toBe(
    "There is no tool 'workspace_finish' you can call. Your tools: workspace_list, workspace_read, workspace_write, chat_read, task_return. To finish your task, call task_return.",
  );
});

test('bad tool JSON comes back as the tool result with the fix in words', async () => {
  const actual = await criticMistakeResult({ name: 'workspace_write', arguments: '{"path": "summaries/a.md", "content": ' });

  expect(actual).toMatch(/^The arguments of workspace_write were not valid JSON \(.+\)\. Call it again with one JSON object that follows its parameters\.$/);
});

test('an unknown tool comes back as the tool result, listing the tools there are', async () => {
  const actual = await criticMistakeResult({ name: 'summon_dragon', arguments: {} });

  expect(actual).toContain("There is no tool 'summon_dragon' you can call. Your tools: workspace_list");
});

test('arguments that fail the schema name the field to fix', async () => {
  const actual = await criticMistakeResult({ name: 'workspace_write', arguments: { path: 'summaries/a.md' } });

  expect(actual).toMatch(/^The arguments of workspace_write did not match its parameters: content: .+\. Fix them and call workspace_write again\.$/);
});

test('a root delegating to an agent it may not use is told which agents it can use', async () => {
  harness.server.queue(
    isRoot,
    { toolCalls: [{ name: 'agent_delegate', arguments: { agentId: 'root', task: { title: 'Me', objective: 'Recursion.' } } }] },
    { toolCalls: [{ name: 'agent_list', arguments: {} }] },
    { content: 'Done.' },
  );

  await harness.start();

  const [, refused, listed] = harness.server.requests.filter(isRoot).map((request) => request.lastMessageText);
  expect(refused).toBe('There is no agent "root" you can delegate to. Agents you can use: scene-critic, continuity-checker.');
  expect(listed).toContain('- `scene-critic` — **Scene critic**: Critiques a scene plan.');
  expect(listed).toContain('You can start 8 more tasks in this run.');
  expect(listed).not.toContain('`root`');
});

test('a child writing outside its view gets the refusal in terms of the path it wrote', async () => {
  const actual = await criticMistakeResult({ name: 'workspace_write', arguments: { path: 'summaries/parent/plan.md', content: 'x' } });

  expect(actual).toContain('summaries/parent/plan.md');
  expect(actual).not.toContain('summaries/agents/scene-critic');
});
