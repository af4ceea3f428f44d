import { afterEach, beforeEach, expect, test } from 'vitest';
import { resultCapsuleSchema } from '../../../src/records/capsule';
import { peakOverlap } from '../../support/scripted-model-server';
import { isChecker, isCritic, isRoot, startHarness, type Harness } from './runtime-harness';

let harness: Harness;
beforeEach(async () => {
  harness = await startHarness();
});
afterEach(async () => {
  await harness.close();
});

const delegateCritic = {
  name: 'agent_delegate',
  arguments: {
    agentId: 'scene-critic',
    task: {
      title: 'Critique the duel',
      objective: 'Say what would make the duel scene stronger.',
      context: { scene: 'the duel in the hall', mustKeep: ['the rain'] },
      expectedOutput: 'Three concrete suggestions.',
    },
  },
};

test('delegate → await → return: the root gets the markdown capsule and writes the reply', async () => {
  harness.server.queue(
    isRoot,
    { toolCalls: [delegateCritic] },
    { toolCalls: [{ name: 'agent_await', arguments: { tasks: ['scene-critic'] } }] },
    (request) => ({ content: `Reply using: ${request.lastMessageText.includes('Slow the first exchange') ? 'the critique' : 'nothing'}` }),
  );
  harness.server.queue(
    isCritic,
    { toolCalls: [{ name: 'workspace_write', arguments: { path: 'summaries/notes.md', content: 'Long critique notes.' } }] },
    {
      toolCalls: [
        {
          name: 'task_return',
          arguments: {
            summary: 'The duel needs tension.',
            findings: ['Slow the first exchange.', 'Let the rain matter.'],
            artifacts: [{ path: './summaries/notes.md', role: 'full notes' }],
            confidence: 'high',
          },
        },
      ],
    },
  );

  const actual = await harness.start();

  expect(actual.reply).toBe('Reply using: the critique');
  expect(actual.run.status).toBe('completed');
  const [task] = await harness.store.listTasks(actual.run.id);
  expect(task).toMatchObject({ workspaceKey: 'scene-critic', status: 'completed', resultStatus: 'completed', targetProfileId: 'scene-critic' });
  expect(task?.resultRef).toBe(`agent-results/${task?.childInvocationId}.json`);
  const structured = resultCapsuleSchema.parse(JSON.parse((await harness.store.readFile(actual.run.id, task?.resultRef ?? ''))?.content ?? '{}'));
  expect(structured.artifacts).toEqual([{ path: 'summaries/notes.md', role: 'full notes' }]);
  const markdown = (await harness.store.readFile(actual.run.id, 'summaries/agents/scene-critic/result.md'))?.content;
  expect(markdown).toContain('Slow the first exchange.');
  expect(await harness.store.readFile(actual.run.id, 'summaries/agents/scene-critic/notes.md')).toMatchObject({ content: 'Long critique notes.' });

  const awaitResult = harness.server.requests.filter(isRoot)[2]?.lastMessageText ?? '';
  expect(awaitResult).toContain('### scene-critic — completed');
  expect(awaitResult).toContain('- Slow the first exchange.');
  expect(awaitResult).toContain('`summaries/agents/scene-critic/notes.md` — full notes');
  expect(awaitResult).not.toContain('"summary"');
  expect(awaitResult).not.toContain(task?.id ?? 'never');

  const delegateResult = harness.server.requests.filter(isRoot)[1]?.lastMessageText ?? '';
  expect(delegateResult).toContain('named `scene-critic`');

  const briefing = harness.server.requests.find(isCritic)?.body.messages[1];
  expect(briefing?.role).toBe('user');
  const briefingText = String(briefing?.content);
  expect(briefingText).toContain('# Critique the duel');
  expect(briefingText).toContain('## Objective');
  expect(briefingText).toContain('- **Must keep**:\n  - the rain');
  expect(briefingText).toContain('## Expected Output\nThree concrete suggestions.');
  expect(briefingText).not.toContain('Mira');
  expect(harness.server.requests.find(isCritic)?.toolNames).toEqual(['workspace_list', 'workspace_read', 'workspace_write', 'chat_read', 'task_return']);
  expect(harness.progress).toEqual(['scene-critic · Critique the duel — started', 'scene-critic · Critique the duel — done']);

  const types = (await harness.journal(actual.run.id)).map((event) => event.type);
  expect(types).toEqual(expect.arrayContaining(['task-queued', 'task-start', 'task-end', 'tool-call-start', 'tool-call-end']));
  expect(types.indexOf('task-queued')).toBeLessThan(types.indexOf('task-start'));
  expect(types.at(-1)).toBe('run-end');
});

test('two children delegated in one turn work at the same time', async () => {
  harness.server.queue(
    isRoot,
    {
      toolCalls: [
        delegateCritic,
        { name: 'agent_delegate', arguments: { agentId: 'continuity-checker', task: { title: 'Check names', objective: 'Check the names.' } } },
      ],
    },
    { toolCalls: [{ name: 'agent_await', arguments: {} }] },
    { content: 'Both are in.' },
  );
  // Each child answers only once the other's request has arrived (or after 5 s, when the test fails):
  // children run one at a time would never get there.
  let arrived = 0;
  let bothArrived: () => void = () => undefined;
  const together = new Promise<void>((resolve) => (bothArrived = resolve));
  const answerWhenBothAsked = (summary: string) => async () => {
    arrived += 1;
    if (arrived === 2) bothArrived();
    await Promise.race([together, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    return { toolCalls: [{ name: 'task_return', arguments: { summary } }] };
  };
  harness.queueLater(isCritic, answerWhenBothAsked('Critic done.'));
  harness.queueLater(isChecker, answerWhenBothAsked('Checker done.'));

  const actual = await harness.start();

  expect(actual.reply).toBe('Both are in.');
  const journal = await harness.journal(actual.run.id);
  const starts = journal.filter((event) => event.type === 'task-start').map((event) => event.seq);
  const firstEnd = journal.find((event) => event.type === 'task-end')?.seq ?? 0;
  expect(starts).toHaveLength(2);
  expect(Math.max(...starts)).toBeLessThan(firstEnd);
  const children = harness.server.requests.filter((request) => isCritic(request) || isChecker(request));
  expect(peakOverlap(children)).toBe(2);
  const awaitResult = harness.server.requests.filter(isRoot)[2]?.lastMessageText ?? '';
  expect(awaitResult).toContain('Critic done.');
  expect(awaitResult).toContain('Checker done.');
});

test('a delegation can narrow the agent’s budget but never widen it; repeats get numbered names', async () => {
  harness.server.queue(
    isRoot,
    {
      toolCalls: [
        { name: 'agent_delegate', arguments: { ...delegateCritic.arguments, budget: { maxRounds: 2, maxToolCalls: 50 } } },
        { name: 'agent_delegate', arguments: { ...delegateCritic.arguments, budget: { maxRounds: 99 } } },
      ],
    },
    { toolCalls: [{ name: 'agent_await', arguments: { tasks: ['scene-critic', 'scene-critic-002'] } }] },
    { content: 'Done.' },
  );
  harness.server.script((request) => (isCritic(request) ? { toolCalls: [{ name: 'task_return', arguments: { summary: 'ok' } }] } : undefined));

  const actual = await harness.start();

  const tasks = await harness.store.listTasks(actual.run.id);
  expect(tasks.map((task) => [task.workspaceKey, task.budget])).toEqual([
    ['scene-critic', { maxRounds: 2, maxToolCalls: 6 }],
    ['scene-critic-002', { maxRounds: 4, maxToolCalls: 6 }],
  ]);
  const delegated = (harness.server.requests.filter(isRoot)[1]?.body.messages ?? []).filter((message) => message.role === 'tool').map((message) => String(message.content));
  expect(delegated[0]).toContain('The task is named `scene-critic`.');
  expect(delegated[0]).toContain('Its limits: 2 rounds, 6 tool calls.');
  expect(delegated[1]).toContain('The task is named `scene-critic-002`.');
});

test('a delegated task starts at once and works while the root does other things, before any await', async () => {
  // The root's second turn is answered only once the critic has finished (or after 5 s, when the test
  // fails): a task that waited for agent_await to start would never get there.
  let criticEnded: Promise<unknown> = Promise.resolve();
  harness.queueLater(
    isRoot,
    () => ((criticEnded = harness.nextEvent((event) => event.type === 'task-end')), { toolCalls: [delegateCritic] }),
    async () => {
      const ended = await Promise.race([criticEnded.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 5_000))]);
      return { toolCalls: [{ name: 'workspace_write', arguments: { path: 'scratch/plan.md', content: ended ? 'The critic finished first.' : 'The critic never ran.' } }] };
    },
    { toolCalls: [{ name: 'agent_await', arguments: {} }] },
    { content: 'Done.' },
  );
  harness.server.queue(isCritic, { toolCalls: [{ name: 'task_return', arguments: { summary: 'Critic done.' } }] });

  const actual = await harness.start();

  expect((await harness.store.readFile(actual.run.id, 'scratch/plan.md'))?.content).toBe('The critic finished first.');
  const journal = await harness.journal(actual.run.id);
  const criticEnd = journal.find((event) => event.type === 'task-end')?.seq ?? Infinity;
  const firstAwait = journal.find((event) => event.type === 'tool-call-start' && event.data['tool'] === 'agent.await')?.seq ?? 0;
  expect(criticEnd).toBeLessThan(firstAwait);
});
