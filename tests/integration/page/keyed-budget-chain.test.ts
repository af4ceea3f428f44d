import { afterEach, beforeEach, expect, test } from 'vitest';
import { addKeyedSpend, KEYED_DAILY_TOKEN_BUDGET } from '../../../src/settings/connection-lending';
import { summariseTaskCost } from '../../../src/ui/side-panel/task-cost';
import type { ScriptedRequest } from '../../support/scripted-model-server';
import { startPageChain, type PageChain } from './page-chain';

/**
 * A keyed connection's daily budget running out in the middle of a helper's task, through the whole
 * chain in Node: the calls the budget no longer covers go to the page's own model, and everything
 * that names a call's model (the journal, the costs, the helper's row) names the one that answered.
 */

const isRoot = (request: ScriptedRequest) => request.systemText.includes('[[root]]');
const isCritic = (request: ScriptedRequest) => request.systemText.includes('[[critic]]');

let chain: PageChain;
beforeEach(async () => {
  chain = await startPageChain();
});
afterEach(() => chain.close());

test("a helper whose keyed budget runs out mid-task: the calls the page's own model answered are named as its calls", async () => {
  // A loopback site starts lent the keyed connection; 100 tokens of today's budget are left.
  const { server, context } = chain;
  await addKeyedSpend(chain.pageOrigin, KEYED_DAILY_TOKEN_BUDGET - 100);
  server.queue(
    isRoot,
    { toolCalls: [{ name: 'agent_delegate', arguments: { agentId: 'scene-critic', task: { title: 'Critique the duel', objective: 'One finding.' } } }] },
    { toolCalls: [{ name: 'agent_await', arguments: {} }] },
    { content: 'The duel, slower.' },
  );
  server.queue(
    isCritic,
    { toolCalls: [{ name: 'workspace_list', arguments: {} }], usage: { prompt_tokens: 1_000, completion_tokens: 500, total_tokens: 1_500 } },
    { toolCalls: [{ name: 'task_return', arguments: { summary: 'Slow the first exchange.', status: 'completed' } }] },
  );
  const completion = await chain.pageClient().chat.completions.create({ model: 'page-model', messages: [{ role: 'user', content: 'The duel in the rain.' }] });

  expect(completion.choices[0]?.message.content).toBe('The duel, slower.');
  // The critic's first call spent the budget on its key; its second went through the page.
  expect(server.requests.filter(isCritic).map((request) => request.headers.authorization)).toEqual(['Bearer sk-local', 'Bearer page-key']);
  const store = await context.getStore();
  const [run] = await store.listRuns();
  const [task] = await store.listTasks(run?.id ?? '');
  const journal = await store.readJournal(run?.id ?? '');
  const criticEnds = journal.filter((event) => event.type === 'model-call-end' && event.taskId === task?.id);
  expect(criticEnds.map((event) => (event.type === 'model-call-end' ? [event.data.model, event.data.pageModel] : []))).toEqual([
    [undefined, undefined],
    ["the page's own model", 'page-model'],
  ]);
  const criticCosts = summariseTaskCost(journal).filter((cost) => cost.taskName === 'scene-critic');
  expect(criticCosts.map((cost) => [cost.model, cost.pageModel, cost.calls])).toEqual([
    // The chain's connection has no label, and is named so.
    ['a connection without a label (give it one in Retinue’s options) · scripted-model', undefined, 1],
    ["the page's own model", 'page-model', 1],
  ]);
  expect(task?.ranWith).toMatchObject({ model: "the page's own model", pageModel: 'page-model' });
});
