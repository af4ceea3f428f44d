// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { MAX_MEMORY_CHARS, type MemoryVersion } from '../../../src/records/memory-version';
import { openRunStore } from '../../../src/store/idb-run-store';
import type { RunStore } from '../../../src/store/run-store';
import { AgentMemoryPanel } from '../../../src/ui/side-panel/agent-memory-panel';
import { buildRun, uniqueDatabaseName } from '../../support/record-builders';
import { installEnglishMessages } from '../../support/english-messages';

beforeAll(installEnglishMessages);

let store: RunStore;
const run = buildRun({ id: 'run-1', status: 'completed', reply: 'The knight bows.' });
const version: MemoryVersion = {
  conversationId: 'chat-1',
  lineKey: 'line-1',
  runId: 'run-1',
  createdAt: 1_000,
  agents: { tracker: [{ path: 'state.md', content: 'Knight: in the hall.' }], root: [{ path: 'plan.md', content: 'Slow scene.' }] },
};
const names: Record<string, string> = { tracker: 'Scene tracker', root: 'Writer' };

beforeEach(async () => {
  store = await openRunStore({ name: uniqueDatabaseName() });
  await store.putRun(run);
});
afterEach(() => {
  cleanup();
  store.close();
});

function show(errors: unknown[] = []) {
  render(<AgentMemoryPanel run={run} store={store} agentName={(id) => names[id] ?? id} onError={(error) => errors.push(error)} now={() => 5_000} />);
}

test('a run without recorded memory shows no memory section', async () => {
  show();
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(screen.queryByRole('region', { name: 'Memory after this reply' })).toBeNull();
});

test('lists each agent’s memory files after the reply, by the agent’s name', async () => {
  await store.putMemoryVersion(version);
  show();
  const region = await screen.findByRole('region', { name: 'Memory after this reply' });
  expect(region.querySelector('[data-agent-id="tracker"] h4')?.textContent).toBe('Scene tracker');
  expect(screen.getByText('memory/state.md · 20 characters')).toBeTruthy();
  expect(screen.getByText('Knight: in the hall.')).toBeTruthy();
  expect(screen.getByText('Slow scene.')).toBeTruthy();
});

test('an edit is saved to the version the next turn on this line starts from', async () => {
  await store.putMemoryVersion(version);
  show();
  fireEvent.click(await screen.findByRole('button', { name: 'Edit memory/state.md of Scene tracker' }));
  fireEvent.input(screen.getByLabelText('memory/state.md of Scene tracker'), { target: { value: 'Knight: at the gate.' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(screen.getByText('Knight: at the gate.')).toBeTruthy());
  const stored = await store.getMemoryVersion('chat-1', 'line-1');
  expect(stored?.agents.tracker).toEqual([{ path: 'state.md', content: 'Knight: at the gate.' }]);
  expect(stored?.editedAt).toBe(5_000);
  expect(stored?.agents.root).toEqual(version.agents.root);
});

test('an edit past the memory cap (all the agent’s files together) is refused with what to do, and nothing is saved', async () => {
  const crowded: MemoryVersion = { ...version, agents: { ...version.agents, tracker: [...(version.agents.tracker ?? []), { path: 'people.md', content: 'y'.repeat(100) }] } };
  await store.putMemoryVersion(crowded);
  show();
  fireEvent.click(await screen.findByRole('button', { name: 'Edit memory/state.md of Scene tracker' }));
  fireEvent.input(screen.getByLabelText('memory/state.md of Scene tracker'), { target: { value: 'x'.repeat(MAX_MEMORY_CHARS - 99) } });
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  expect((await screen.findByRole('alert')).textContent).toContain('The memory of Scene tracker may hold at most 32,000 characters');
  expect(await store.getMemoryVersion('chat-1', 'line-1')).toEqual(crowded);
});

test('clearing an agent’s memory removes only that agent’s files', async () => {
  await store.putMemoryVersion(version);
  show();
  fireEvent.click(await screen.findByRole('button', { name: 'Clear the memory of Scene tracker' }));
  await waitFor(() => expect(screen.queryByText('Knight: in the hall.')).toBeNull());
  expect(screen.getByText('Slow scene.')).toBeTruthy();
  const stored = await store.getMemoryVersion('chat-1', 'line-1');
  expect(stored?.agents).toEqual({ root: version.agents.root });
});
