import { afterEach, expect, test } from 'vitest';
import type { SettingsDefaults } from '../../../src/settings/schema';
import type { ScriptedRequest } from '../../support/scripted-model-server';
import { delegate, isChecker, isCritic, isRoot, startHarness, testProfiles, type Harness } from './runtime-harness';

/**
 * Issue 20, cases 5, 8 and 9: delegations that happen at the same moment, slots lent while a parent
 * waits, and providers that number their tool calls per turn.
 */
let harness: Harness;
afterEach(async () => {
  await harness.close();
});

const AGENT_TOOLS = ['agent.list', 'agent.delegate', 'agent.await', 'agent.cancel'] as const;
const WORK_TOOLS = ['workspace.list', 'workspace.read', 'workspace.write', 'chat.read'] as const;
const returns = (summary: string) => ({ toolCalls: [{ name: 'task_return', arguments: { summary } }] });
const awaitAll = { toolCalls: [{ name: 'agent_await', arguments: {} }] };
const briefed = (title: string) => (request: ScriptedRequest) => isChecker(request) && request.allText.includes(`${title}, please.`);

async function startNested(defaults: Partial<SettingsDefaults>): Promise<void> {
  harness = await startHarness({
    defaults,
    profiles: testProfiles({
      critic: {
        tools: { allow: [...AGENT_TOOLS, ...WORK_TOOLS] },
        delegation: { canDelegate: true, allowNestedDelegation: true, allowedAgents: ['continuity-checker'] },
        budget: { maxRounds: 6, maxToolCalls: 12 },
      },
    }),
  });
}

/**
 * Two critics whose first calls are answered only once both have asked, so that both delegate a
 * check in the same moment; each then waits for its check and returns what it read.
 */
function scriptTwinCritics(): void {
  harness.server.queue(
    isRoot,
    { toolCalls: [delegate('scene-critic', 'Critique one'), delegate('scene-critic', 'Critique two')] },
    awaitAll,
    { content: 'Replied.' },
  );
  let arrivals = 0;
  let bothArrived: () => void = () => undefined;
  const together = new Promise<void>((resolve) => (bothArrived = resolve));
  const firstCall = async () => {
    arrivals += 1;
    if (arrivals === 2) bothArrived();
    await together;
    return { toolCalls: [delegate('continuity-checker', 'Check names')] };
  };
  const isFirstCriticCall = (request: ScriptedRequest) => isCritic(request) && request.toolResultCount === 0;
  harness.queueLater(isFirstCriticCall, firstCall, firstCall);
  harness.server.queue((request) => isCritic(request) && request.toolResultCount === 1, awaitAll, awaitAll);
  harness.server.queue((request) => isCritic(request) && request.toolResultCount >= 2, returns('Critic done.'), returns('Critic done.'));
}

test('two invocations delegating at the same moment get two workspace keys, and neither result overwrites the other', async () => {
  await startNested({ maxRunningChildren: 4 });
  scriptTwinCritics();
  harness.server.queue(isChecker, returns('Check A.'), returns('Check B.'));

  const actual = await harness.start();

  expect(actual.run.status).toBe('completed');
  const keys = (await harness.store.listTasks(actual.run.id)).map((task) => task.workspaceKey);
  expect(keys.sort()).toEqual(['continuity-checker', 'continuity-checker-002', 'scene-critic', 'scene-critic-002']);
  const results = await Promise.all(
    ['continuity-checker', 'continuity-checker-002'].map(async (key) => (await harness.store.readFile(actual.run.id, `summaries/agents/${key}/result.md`))?.content ?? ''),
  );
  expect(results.map((text) => (text.includes('Check A.') ? 'A' : text.includes('Check B.') ? 'B' : '?')).sort()).toEqual(['A', 'B']);
});

test('two invocations delegating at the same moment together stay within maxTasksPerRun', async () => {
  await startNested({ maxRunningChildren: 4, maxTasksPerRun: 3 });
  scriptTwinCritics();
  harness.server.queue(isChecker, returns('Check A.'), returns('Check B.'));

  const actual = await harness.start();

  expect(actual.run.status).toBe('completed');
  const tasks = await harness.store.listTasks(actual.run.id);
  expect(tasks).toHaveLength(3);
  const refusals = harness.server.requests.filter((request) => isCritic(request) && request.lastMessageText.includes('This run already has its 3 delegated tasks'));
  expect(refusals).toHaveLength(1);
});

test('a waiting parent lends its slot to its own task, not to whatever heads the queue', async () => {
  await startNested({ maxRunningChildren: 1 });
  harness.server.queue(
    isRoot,
    { toolCalls: [delegate('scene-critic', 'Critique'), delegate('continuity-checker', 'Root check')] },
    awaitAll,
    { content: 'Replied.' },
  );
  harness.server.queue(isCritic, { toolCalls: [delegate('continuity-checker', 'Check names')] }, awaitAll, returns('Critic done.'));
  harness.queueLater(briefed('Check names'), returns('Names fine.'));
  harness.queueLater(briefed('Root check'), returns('Root check fine.'));

  const actual = await harness.start();

  expect(actual.run.status).toBe('completed');
  const firstChecker = harness.server.requests.find(isChecker);
  expect(firstChecker?.allText).toContain('Check names, please.');
  // The critic, waiting, read its own check's result; the root's check ran once the critic had ended.
  expect(harness.server.requests.filter(isCritic).at(-1)?.lastMessageText).toContain('Names fine.');
  const tasks = await harness.store.listTasks(actual.run.id);
  expect(tasks.every((task) => task.status === 'completed')).toBe(true);
});

test('a provider that numbers tool calls per turn (call_0 in two turns) gets both tasks', async () => {
  harness = await startHarness();
  harness.server.queue(
    isRoot,
    { toolCalls: [{ id: 'call_0', ...delegate('scene-critic', 'Critique') }] },
    { toolCalls: [{ id: 'call_0', ...delegate('continuity-checker', 'Check') }] },
    { toolCalls: [{ id: 'call_0', name: 'agent_await', arguments: {} }] },
    (request) => ({ content: `Reply: ${request.lastMessageText}` }),
  );
  harness.server.queue(isCritic, returns('Critic says A.'));
  harness.server.queue(isChecker, returns('Checker says B.'));

  const actual = await harness.start();

  const tasks = await harness.store.listTasks(actual.run.id);
  expect(tasks.map((task) => task.workspaceKey)).toEqual(['scene-critic', 'continuity-checker']);
  expect(harness.server.requests.filter(isChecker)).toHaveLength(1);
  expect(actual.reply).toContain('Checker says B.');
});
