import { afterEach, beforeEach, expect, test } from 'vitest';
import { isChecker, isCritic, isRoot, startHarness, testProfiles, type Harness } from './runtime-harness';

let harness: Harness;
beforeEach(async () => {
  harness = await startHarness({ profiles: testProfiles({ checker: { context: { recentChatMessages: 2 } } }) });
});
afterEach(async () => {
  await harness.close();
});

const delegate = (agentId: string, title: string) => ({ name: 'agent_delegate', arguments: { agentId, task: { title, objective: `${title}, please.`, context: 'See summaries/parent/plan.md.' } } });

test('no request the server received shows a child a physical path or a runtime id, nor the root a runtime id', async () => {
  harness.server.queue(
    isRoot,
    { toolCalls: [{ name: 'workspace_write', arguments: { path: 'summaries/plan.md', content: 'The plan.' } }] },
    { toolCalls: [delegate('scene-critic', 'Critique')] },
    { toolCalls: [{ name: 'agent_await', arguments: {} }] },
    { toolCalls: [delegate('continuity-checker', 'Check')] },
    { toolCalls: [{ name: 'agent_await', arguments: {} }] },
    { toolCalls: [{ name: 'workspace_list', arguments: { path: 'summaries/agents/' } }] },
    { content: 'Done.' },
  );
  harness.server.queue(
    isCritic,
    { toolCalls: [{ name: 'workspace_read', arguments: { path: 'summaries/parent/plan.md' } }] },
    { toolCalls: [{ name: 'workspace_write', arguments: { path: 'summaries/notes.md', content: 'Critic notes.' } }] },
    { toolCalls: [{ name: 'workspace_read', arguments: { path: 'summaries/missing.md' } }] },
    { toolCalls: [{ name: 'task_return', arguments: { summary: 'Critic done.', artifacts: [{ path: 'summaries/notes.md' }] } }] },
  );
  harness.server.queue(
    isChecker,
    { toolCalls: [{ name: 'workspace_list', arguments: { path: 'summaries/' } }] },
    { toolCalls: [{ name: 'workspace_list', arguments: { path: 'summaries/agents/' } }] },
    { toolCalls: [{ name: 'workspace_read', arguments: { path: 'summaries/agents/scene-critic/result.md' } }] },
    { toolCalls: [{ name: 'chat_read', arguments: { query: 'duke' } }] },
    { toolCalls: [{ name: 'task_return', arguments: { summary: 'Checker done.', artifacts: [{ path: 'scratch/none.md' }] } }] },
  );

  const actual = await harness.start();

  expect(actual.reply).toBe('Done.');
  const runId = actual.run.id;
  const invocations = await harness.store.listInvocations(runId);
  const tasks = await harness.store.listTasks(runId);
  const runtimeIds = [runId, ...invocations.map((invocation) => invocation.id), ...tasks.map((task) => task.id), ...invocations.map((invocation) => invocation.providerSessionId)];
  expect(harness.server.unmatched).toEqual([]);
  for (const request of harness.server.requests) {
    const body = JSON.stringify(request.body);
    for (const id of runtimeIds) expect(body).not.toContain(id);
    expect(body).not.toContain('agent-results');
  }
  const criticBodies = harness.server.requests.filter(isCritic).map((request) => JSON.stringify(request.body));
  const checkerBodies = harness.server.requests.filter(isChecker).map((request) => JSON.stringify(request.body));
  expect(criticBodies.length).toBe(4);
  expect(checkerBodies.length).toBe(5);
  for (const body of criticBodies) expect(body).not.toContain('summaries/agents/scene-critic');
  for (const body of checkerBodies) {
    expect(body).not.toContain('summaries/agents/continuity-checker');
    expect(body).not.toContain('scratch/agents/');
  }
  // What the children did see, in their own terms.
  const criticLast = harness.server.requests.filter(isCritic).at(-1)?.allText ?? '';
  expect(criticLast).toContain('The plan.');
  expect(criticLast).toContain('summaries/missing.md');
  const checkerLast = harness.server.requests.filter(isChecker).at(-1)?.allText ?? '';
  expect(checkerLast).toContain('Critic done.');
  expect(checkerLast).toContain('She draws her sword and faces the duke.');
  const checkerBriefing = String(harness.server.requests.find(isChecker)?.body.messages[1]?.content);
  expect(checkerBriefing).toContain('## Recent conversation (last 2 messages)');
  expect(checkerBriefing).toContain('`summaries/agents/scene-critic/result.md`');
});
