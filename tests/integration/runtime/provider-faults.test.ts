import { afterEach, expect, test } from 'vitest';
import { isCritic, isRoot, startHarness, type Harness, delegateCritic } from './runtime-harness';

let harness: Harness;
afterEach(async () => {
  await harness.close();
});

test('a 429 with Retry-After is retried after the wait, then the run goes on', async () => {
  harness = await startHarness();
  harness.server.queue(isRoot, { fault: 'status', status: 429, retryAfter: 1, message: 'slow down' }, { content: 'After the wait.' });

  const actual = await harness.start();

  expect(actual.reply).toBe('After the wait.');
  expect(harness.server.requests.map((request) => request.outcome)).toEqual(['status', 'answered']);
  const retries = (await harness.journal(actual.run.id)).filter((event) => event.type === 'model-call-retry');
  expect(retries).toHaveLength(1);
  expect(retries[0]?.data).toMatchObject({ attempt: 1, status: 429 });
  // The wait the client chose honours the server's Retry-After of one second.
  expect(Number(retries[0]?.data['delayMs'])).toBeGreaterThanOrEqual(1_000);
});

test('a child whose model fails for ever becomes a failed capsule, and the root still answers', async () => {
  harness = await startHarness({ maxRetries: 1 });
  harness.server.queue(isRoot, { toolCalls: [delegateCritic] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'Answered without the critic.' });
  harness.server.script((request) => (isCritic(request) ? { fault: 'status', status: 500, message: 'critic model down' } : undefined));

  const actual = await harness.start();

  expect(actual.reply).toBe('Answered without the critic.');
  expect(actual.run.status).toBe('completed');
  expect(harness.server.requests.filter(isCritic)).toHaveLength(2);
  const [task] = await harness.store.listTasks(actual.run.id);
  expect(task).toMatchObject({ status: 'failed', resultStatus: 'failed' });
  expect(task?.error?.message).toMatch(/500/);
  const awaited = harness.server.requests.filter(isRoot)[2]?.lastMessageText ?? '';
  expect(awaited).toContain('### scene-critic — failed');
  expect(awaited).toContain('The task could not be finished:');
  expect(harness.progress).toContain('scene-critic · Critique — failed');
});

test('a stream cut mid-way is retried and the turn completes whole', async () => {
  harness = await startHarness();
  harness.server.queue(
    isRoot,
    { fault: 'cut-stream', afterChunks: 2, turn: { content: 'A reply that breaks off in the middle.' } },
    { content: 'A reply that arrives whole.' },
  );

  const actual = await harness.start();

  expect(actual.reply).toBe('A reply that arrives whole.');
  expect(harness.server.requests.map((request) => request.outcome)).toEqual(['cut', 'answered']);
  const root = await harness.store.getInvocation(actual.run.rootInvocationId);
  expect(root?.messages.at(-1)).toEqual({ role: 'assistant', content: 'A reply that arrives whole.' });
});

test('a root whose model fails for ever fails the run; its running children are cancelled, saying why', async () => {
  harness = await startHarness({ maxRetries: 0 });
  harness.server.queue(isRoot, { toolCalls: [delegateCritic] }, { fault: 'status', status: 502, message: 'gateway down' });
  harness.server.queue(isCritic, { fault: 'hang' });

  const actual = await harness.start();

  expect(actual.run.status).toBe('failed');
  expect(actual.run.error?.code).toBe('provider-server-error');
  const [task] = await harness.store.listTasks(actual.run.id);
  expect(task).toMatchObject({ status: 'cancelled', error: { message: 'The run failed before this task finished.' } });
  const root = await harness.store.getInvocation(actual.run.rootInvocationId);
  expect(root).toMatchObject({ status: 'failed', error: { code: 'provider-server-error' } });
});
