import { afterEach, expect, test } from 'vitest';
import { peakOverlap, type ScriptedRequest } from '../../support/scripted-model-server';
import { startPageChain, type PageChain } from './page-chain';

/**
 * Calls through the page share one queue of PAGE_CALLS_AT_ONCE (6): a browser would hold the rest in
 * its own connection queue, where a helper's clock runs. The page hook's fetch here has no such
 * queue, so any call past the cap would show at the server as one more answered at the same time.
 */

const isRoot = (request: ScriptedRequest) => request.systemText.includes('[[root]]');
const isChecker = (request: ScriptedRequest) => request.systemText.includes('[[checker]]');
/** PAGE_CALLS_AT_ONCE (run-model-resolver.ts), as the browser's limit and the page's own use make it. */
const AT_ONCE = 6;
const CHECKS = 8;
const ANSWER_MS = 700;
/** Each helper's time limit: a helper whose clock ran while its call waited its turn would pass it. */
const HELPER_TIMEOUT_MS = 1_000;

let chain: PageChain;
afterEach(() => chain.close());

/** The root's delegate calls: `count` continuity checks, "Check scene 1" onwards. */
const checkDelegations = (count: number) =>
  Array.from({ length: count }, (_, index) => ({
    name: 'agent_delegate',
    arguments: { agentId: 'continuity-checker', task: { title: `Check scene ${index + 1}`, objective: 'One finding.' } },
  }));

/** Check n answers after `firstMs + stepMs·n`: with a step, one connection comes free at a time. */
function scriptChecks(server: PageChain['server'], firstMs: number, stepMs = 0): void {
  server.script((request) => {
    if (!isChecker(request)) return undefined;
    const scene = Number(/Check scene (\d)/.exec(request.allText)?.[1] ?? 0);
    return { delayMs: firstMs + stepMs * scene, toolCalls: [{ name: 'task_return', arguments: { summary: 'No contradiction.', status: 'completed' } }] };
  });
}

test(`eight helpers on the page's own model, allowed eight at once: at most ${AT_ONCE} of their calls go through the page at a time, and all eight answer within their time though the last wait their turn`, async () => {
  chain = await startPageChain((settings) => ({
    ...settings,
    defaults: { ...settings.defaults, maxRunningChildren: 8 },
    profiles: settings.profiles.map((profile) => (profile.id === 'continuity-checker' ? { ...profile, budget: { ...profile.budget, timeoutMs: HELPER_TIMEOUT_MS } } : profile)),
  }));
  const { server, context } = chain;
  server.queue(isRoot, { toolCalls: checkDelegations(CHECKS) }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'All eight answered.' });
  scriptChecks(server, ANSWER_MS);

  const completion = await chain.pageClient().chat.completions.create({ model: 'page-model', messages: [{ role: 'user', content: 'The duel in the rain.' }] });

  expect(completion.choices[0]?.message.content).toBe('All eight answered.');
  const store = await context.getStore();
  const [run] = await store.listRuns();
  expect((await store.listTasks(run?.id ?? '')).map((task) => task.status)).toEqual(Array(CHECKS).fill('completed'));
  const checks = server.requests.filter(isChecker);
  expect(checks).toHaveLength(CHECKS);
  expect(peakOverlap(checks)).toBe(AT_ONCE);
});

test("the root's call takes the next free connection ahead of helpers' calls waiting for one: nine helpers, six at a time, and the root's next round is not kept behind the two still queued", async () => {
  const helpers = 9;
  chain = await startPageChain((settings) => ({ ...settings, defaults: { ...settings.defaults, maxRunningChildren: helpers, maxTasksPerRun: helpers } }));
  const { server } = chain;
  server.queue(
    isRoot,
    { toolCalls: checkDelegations(helpers) },
    { toolCalls: [{ name: 'agent_await', arguments: { mode: 'nextCompleted' } }] },
    { toolCalls: [{ name: 'agent_await', arguments: { mode: 'allCompleted' } }] },
    { content: 'All nine answered.' },
  );
  scriptChecks(server, 300, 250);

  const completion = await chain.pageClient().chat.completions.create({ model: 'page-model', messages: [{ role: 'user', content: 'The duel in the rain.' }] });

  expect(completion.choices[0]?.message.content).toBe('All nine answered.');
  const checks = server.requests.filter(isChecker);
  expect(checks).toHaveLength(helpers);
  expect(peakOverlap([...checks, ...server.requests.filter(isRoot)])).toBe(AT_ONCE);
  // The root's third call came after the first helper ended, while two helpers' calls still waited: it went first.
  const rootThird = server.requests.filter(isRoot)[2];
  const queuedLast = checks.slice(-2);
  expect(rootThird?.index).toBeLessThan(Math.min(...queuedLast.map((request) => request.index)));
});

test("at the reply deadline the root's reply takes the next free connection ahead of helpers still waiting for one, and the helpers finish after the reply", async () => {
  const helpers = 8;
  chain = await startPageChain((settings) => ({
    ...settings,
    defaults: { ...settings.defaults, maxRunningChildren: helpers },
    sites: settings.sites.map((site) => ({ ...site, replyDeadlineMs: 400 })),
  }));
  const { server, context } = chain;
  server.queue(isRoot, { toolCalls: checkDelegations(helpers) }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'Replied at the deadline.' });
  // Past the deadline, one connection coming free at a time.
  scriptChecks(server, 1_000, 150);

  const completion = await chain.pageClient().chat.completions.create({ model: 'page-model', messages: [{ role: 'user', content: 'The duel in the rain.' }] });

  expect(completion.choices[0]?.message.content).toBe('Replied at the deadline.');
  const store = await context.getStore();
  const [run] = await store.listRuns();
  while ((await store.getRun(run?.id ?? ''))?.status === 'running') await new Promise((resolve) => setTimeout(resolve, 20));
  // The helper still waiting for a connection when the deadline came went after the root's reply.
  // Read once the run ended: that helper takes the connection the reply frees, so its call may reach
  // the model only after the page has the reply.
  const rootReply = server.requests.filter(isRoot)[2];
  expect(rootReply?.index).toBeLessThan(server.requests.filter(isChecker).at(-1)?.index ?? -1);
  expect((await store.getRun(run?.id ?? ''))?.reply).toBe('Replied at the deadline.');
  expect((await store.listTasks(run?.id ?? '')).map((task) => task.status)).toEqual(Array(helpers).fill('completed'));
  expect(server.requests.filter(isChecker)).toHaveLength(helpers);
  expect(peakOverlap(server.requests)).toBe(AT_ONCE);
}, 20_000);

