import { afterEach, expect, test } from 'vitest';
import { resultCapsuleSchema } from '../../../src/records/capsule';
import { isCritic, isRoot, startHarness, testProfiles, type Harness, delegateCritic } from './runtime-harness';

let harness: Harness;
afterEach(async () => {
  await harness.close();
});

const rootThatAwaits = (reply: string) => [{ toolCalls: [delegateCritic] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: reply }];
const listAgain = { toolCalls: [{ name: 'workspace_list', arguments: {} }] };

async function criticCapsule(runId: string) {
  const [task] = await harness.store.listTasks(runId);
  const file = await harness.store.readFile(runId, task?.resultRef ?? '');
  return { task, capsule: resultCapsuleSchema.parse(JSON.parse(file?.content ?? '{}')) };
}

test('a child at its round cap gets one last call offering only task_return, and its result is partial', async () => {
  harness = await startHarness({ profiles: testProfiles({ critic: { budget: { maxRounds: 2, maxToolCalls: 10 } } }) });
  harness.server.queue(isRoot, ...rootThatAwaits('Done.'));
  harness.server.queue(isCritic, listAgain, listAgain, { toolCalls: [{ name: 'task_return', arguments: { summary: 'Half a critique.' } }] });

  const actual = await harness.start();

  expect(actual.reply).toBe('Done.');
  const criticRequests = harness.server.requests.filter(isCritic);
  expect(criticRequests).toHaveLength(3);
  const wrapUp = criticRequests[2];
  expect(wrapUp?.toolNames).toEqual(['task_return']);
  expect(wrapUp?.body.tool_choice).toEqual({ type: 'function', function: { name: 'task_return' } });
  expect(wrapUp?.lastMessageText).toContain('You have reached the limit of rounds, tool calls or tokens');
  const { task, capsule } = await criticCapsule(actual.run.id);
  expect(task).toMatchObject({ status: 'completed', resultStatus: 'partial' });
  expect(capsule.status).toBe('partial');
  expect(capsule.warnings).toEqual(['Stopped at its budget (2 rounds, 10 tool calls) before finishing on its own; this result may be incomplete.']);
  expect(harness.server.requests.filter(isRoot)[2]?.lastMessageText).toContain('### scene-critic — partial result');
});

test('calls beyond the tool-call budget are not run and the wrap-up follows; task_return never counts', async () => {
  harness = await startHarness({ profiles: testProfiles({ critic: { budget: { maxRounds: 5, maxToolCalls: 1 } } }) });
  harness.server.queue(isRoot, ...rootThatAwaits('Done.'));
  harness.server.queue(
    isCritic,
    { toolCalls: [{ name: 'workspace_list', arguments: {} }, { name: 'chat_read', arguments: {} }] },
    { toolCalls: [{ name: 'task_return', arguments: { summary: 'What I had.' } }] },
  );

  const actual = await harness.start();

  const criticRequests = harness.server.requests.filter(isCritic);
  expect(criticRequests).toHaveLength(2);
  const toolResults = (criticRequests[1]?.body.messages ?? []).filter((message) => message.role === 'tool').map((message) => String(message.content));
  expect(toolResults[0]).toContain('Contents of your workspace:');
  expect(toolResults[1]).toBe('chat_read was not run: you have used all the tool calls this work allows. Finish with what you have.');
  expect(criticRequests[1]?.toolNames).toEqual(['task_return']);
  const { task, capsule } = await criticCapsule(actual.run.id);
  expect(capsule.status).toBe('partial');
  expect(task?.usage.toolCalls).toBe(1);
});

test('calls to tools that do not exist count against the tool-call budget, and past it are refused', async () => {
  harness = await startHarness({ profiles: testProfiles({ critic: { budget: { maxRounds: 5, maxToolCalls: 1 } } }) });
  harness.server.queue(isRoot, ...rootThatAwaits('Done.'));
  harness.server.queue(
    isCritic,
    { toolCalls: [{ name: 'web_search', arguments: { query: 'duke' } }, { name: 'web_search', arguments: { query: 'knight' } }] },
    { toolCalls: [{ name: 'task_return', arguments: { summary: 'Without searching.' } }] },
  );

  const actual = await harness.start();

  const criticRequests = harness.server.requests.filter(isCritic);
  expect(criticRequests).toHaveLength(2);
  const toolResults = (criticRequests[1]?.body.messages ?? []).filter((message) => message.role === 'tool').map((message) => String(message.content));
  expect(toolResults[0]).toContain("There is no tool 'web_search' you can call.");
  expect(toolResults[1]).toBe('web_search was not run: you have used all the tool calls this work allows. Finish with what you have.');
  expect(criticRequests[1]?.toolNames).toEqual(['task_return']);
  const { task } = await criticCapsule(actual.run.id);
  expect(task?.usage.toolCalls).toBe(1);
});

test('a child that answers in text is told once to use task_return; text again becomes its partial result', async () => {
  harness = await startHarness();
  harness.server.queue(isRoot, ...rootThatAwaits('Done.'));
  harness.server.queue(isCritic, { content: 'The scene is fine.' }, { content: 'Really, the scene is fine.' });

  const actual = await harness.start();

  const criticRequests = harness.server.requests.filter(isCritic);
  expect(criticRequests[1]?.lastMessageText).toContain('Your task is not finished until you call task_return.');
  const { capsule } = await criticCapsule(actual.run.id);
  expect(capsule).toMatchObject({ status: 'partial', summary: 'Really, the scene is fine.' });
  expect(capsule.warnings[0]).toContain('Answered in plain text instead of calling task_return');
});

test('a child that fails to give anything in its wrap-up fails the task; the root still answers', async () => {
  harness = await startHarness({ profiles: testProfiles({ critic: { budget: { maxRounds: 1, maxToolCalls: 10 } } }) });
  harness.server.queue(isRoot, ...rootThatAwaits('Answered anyway.'));
  // Empty, and empty again after the one "answer now" nudge.
  harness.server.queue(isCritic, listAgain, { content: '' }, { content: '' });

  const actual = await harness.start();

  expect(actual.reply).toBe('Answered anyway.');
  const [task] = await harness.store.listTasks(actual.run.id);
  expect(task).toMatchObject({ status: 'failed', error: { code: 'empty-answer' } });
});

test('the root at its cap gets one more call without tools, and its text is the reply', async () => {
  harness = await startHarness({ profiles: testProfiles({ root: { budget: { maxRounds: 2, maxToolCalls: 10 } } }) });
  harness.server.queue(isRoot, { toolCalls: [{ name: 'agent_list', arguments: {} }] }, { toolCalls: [{ name: 'chat_read', arguments: {} }] }, { content: 'Final words.' });

  const actual = await harness.start();

  expect(actual.reply).toBe('Final words.');
  const last = harness.server.requests.filter(isRoot)[2];
  expect(last?.toolNames).toEqual([]);
  expect(last?.lastMessageText).toContain('No more tools are available: write your final reply now');
  expect(actual.run.usage.rounds).toBe(3);
});

test('where the provider refuses a forced tool choice, the wrap-up asks without tools and takes the text as a partial result', async () => {
  harness = await startHarness({ profiles: testProfiles({ critic: { budget: { maxRounds: 1, maxToolCalls: 10 } } }) });
  harness.server.queue(isRoot, ...rootThatAwaits('Done.'));
  harness.server.script((request) =>
    isCritic(request) && request.body.tool_choice !== undefined ? { fault: 'status', status: 400, message: 'tool_choice is not supported' } : undefined,
  );
  harness.server.queue(isCritic, listAgain, { content: 'My findings so far: the duel drags.' });

  const actual = await harness.start();

  const criticRequests = harness.server.requests.filter(isCritic);
  expect(criticRequests.map((request) => request.toolNames)).toEqual([
    ['workspace_list', 'workspace_read', 'workspace_write', 'chat_read', 'task_return'],
    ['task_return'],
    [],
  ]);
  const { capsule } = await criticCapsule(actual.run.id);
  expect(capsule).toMatchObject({ status: 'partial', summary: 'My findings so far: the duel drags.' });
});
