import { afterEach, beforeEach, expect, test } from 'vitest';
import { isRoot, MARKER, startHarness, type Harness } from './runtime-harness';

let harness: Harness;
beforeEach(async () => {
  harness = await startHarness();
});
afterEach(async () => {
  await harness.close();
});

test('a root that answers at once completes the run with that answer as the reply', async () => {
  harness.server.queue(isRoot, { content: 'She lifts the blade; the duke smiles.' });

  const actual = await harness.start();

  expect(actual.reply).toBe('She lifts the blade; the duke smiles.');
  expect(actual.run.status).toBe('completed');
  const stored = await harness.store.getRun(actual.run.id);
  expect(stored?.reply).toBe('She lifts the blade; the duke smiles.');
  expect(stored?.usage.rounds).toBe(1);
  const request = harness.server.requests[0];
  expect(request?.systemText.startsWith(MARKER.root)).toBe(true);
  expect(request?.systemText).toContain('You are Mira, a storyteller.');
  expect(request?.body.temperature).toBe(0.7);
  expect(request?.toolNames).toEqual(expect.arrayContaining(['agent_delegate', 'workspace_commit', 'chat_read']));
  const types = (await harness.journal(actual.run.id)).map((event) => event.type);
  expect(types).toEqual(['run-start', 'invocation-start', 'model-call-start', 'model-call-end', 'invocation-end', 'run-end']);
});

test('text the root writes beside a tool call never lands in the reply', async () => {
  harness.server.queue(
    isRoot,
    { content: 'Let me think out loud…', toolCalls: [{ name: 'workspace_write', arguments: { path: 'output/reply.md', content: 'The committed reply.' } }] },
    { toolCalls: [{ name: 'workspace_commit', arguments: { path: 'output/reply.md' } }] },
  );

  const actual = await harness.start();

  expect(actual.reply).toBe('The committed reply.');
  expect(actual.run.status).toBe('completed');
});

test('a model that fails for ever fails the run closed with a clear error', async () => {
  harness.server.script(() => ({ fault: 'status', status: 500, message: 'upstream exploded' }));

  const actual = await harness.start();

  expect(actual.run.status).toBe('failed');
  expect(actual.reply).toBe('');
  expect(actual.run.error?.message).toMatch(/500|upstream/);
});

test('workspace.finish ends the run without a reply of its own', async () => {
  harness.server.queue(isRoot, { content: 'Not shown.', toolCalls: [{ name: 'workspace_finish', arguments: {} }] });

  const actual = await harness.start();

  expect(actual.run.status).toBe('completed');
  expect(actual.reply).toBe('');
  expect(harness.server.requests).toHaveLength(1);
});

test('committing a file that does not exist is a mistake the root can fix', async () => {
  harness.server.queue(
    isRoot,
    { toolCalls: [{ name: 'workspace_commit', arguments: { path: 'output/missing.md' } }] },
    { content: 'Plain reply instead.' },
  );

  const actual = await harness.start();

  expect(actual.reply).toBe('Plain reply instead.');
  expect(harness.server.requests[1]?.lastMessageText).toContain('output/missing.md');
});

test('a root profile that does not exist fails the run with a settings error', async () => {
  const actual = await harness.start({ rootProfileId: 'no-such-profile' });

  expect(actual.run.status).toBe('failed');
  expect(actual.run.error?.code).toBe('profile-missing');
  expect(harness.server.requests).toHaveLength(0);
});
