// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openRunStore } from '../../../src/store/idb-run-store';
import type { RunStore } from '../../../src/store/run-store';
import { LookupList } from '../../../src/ui/side-panel/lookup-list';
import { TaskList } from '../../../src/ui/side-panel/task-list';
import { messageNumbersText, taskLookups } from '../../../src/ui/side-panel/task-lookups';
import { buildTask, uniqueDatabaseName } from '../../support/record-builders';
import { installEnglishMessages } from '../../support/english-messages';

beforeAll(installEnglishMessages);

describe('what a task looked up', () => {
  let store: RunStore;

  beforeEach(async () => {
    store = await openRunStore({ name: uniqueDatabaseName() });
  });
  afterEach(() => {
    cleanup();
    store.close();
  });

  it('message numbers read as runs, in the order given, with the rest counted', () => {
    expect(messageNumbersText([2, 3, 4, 5, 7])).toBe('#2–#5, #7');
    expect(messageNumbersText([9, 4, 3])).toBe('#9, #4, #3');
    expect(messageNumbersText(Array.from({ length: 20 }, (_, index) => index * 2 + 1))).toBe('#1, #3, #5, #7, #9, #11, #13, #15, #17, #19, #21, #23 and 8 more');
  });

  it('lists what a task looked up in the lorebooks beside its chat lookups', async () => {
    await store.appendJournal({ runId: 'run-1', type: 'chat-searched', taskId: 'checker', data: { query: 'glade', found: 1, messages: [6] } });
    await store.appendJournal({ runId: 'run-1', type: 'lore-lookup', taskId: 'checker', data: { tool: 'lore.search', labels: ['"shadowfang"', 'Eldoria #1'] } });
    await store.appendJournal({ runId: 'run-1', type: 'lore-lookup', taskId: 'checker', data: { tool: 'lore.read', labels: [] } });

    expect(taskLookups(await store.readJournal('run-1'), 'checker')).toEqual([
      { kind: 'chat-search', label: 'Searched the chat for “glade”: 1 found (#6)' },
      { kind: 'lore', label: 'Looked in the lorebooks: "shadowfang", Eldoria #1' },
    ]);
  });

  it('lists each search and read of the task, in order, and nothing of other tasks', async () => {
    const task = buildTask({ id: 'checker', runId: 'run-1', workspaceKey: 'continuity-checker', status: 'completed', task: { title: 'Check continuity', objective: 'o' } });
    const other = buildTask({ id: 'critic', runId: 'run-1', workspaceKey: 'scene-critic', status: 'completed', task: { title: 'Critique', objective: 'o' } });
    await store.appendJournal({ runId: 'run-1', type: 'chat-searched', taskId: 'checker', data: { query: 'silver key', found: 3, messages: [6, 3, 2] } });
    await store.appendJournal({ runId: 'run-1', type: 'chat-searched', taskId: 'critic', data: { query: 'weather', found: 1, messages: [4] } });
    await store.appendJournal({ runId: 'run-1', type: 'tool-call-end', taskId: 'checker', data: { tool: 'chat.search', ok: true } });
    await store.appendJournal({ runId: 'run-1', type: 'chat-messages-read', taskId: 'checker', data: { from: 2, to: 3, messages: [2, 3] } });
    await store.appendJournal({ runId: 'run-1', type: 'chat-searched', taskId: 'checker', data: { query: 'dragon', found: 0, messages: [] } });
    await store.appendJournal({ runId: 'run-1', type: 'chat-messages-read', taskId: 'checker', data: { from: 6, to: 6, messages: [6], cut: true } });
    render(<TaskList tasks={[task, other]} store={store} now={0} onCancel={() => undefined} />);
    const row = document.querySelector<HTMLElement>('[data-task-id="checker"]') as HTMLElement;

    expect(within(row).queryByText('What it looked up')).toBeNull();
    fireEvent.click(within(row).getByRole('button', { name: /continuity-checker/ }));

    const list = await waitFor(() => within(row).getByRole('region', { name: 'What it looked up' }));
    expect(Array.from(list.querySelectorAll('li')).map((item) => [item.dataset['lookupKind'], item.textContent])).toEqual([
      ['chat-search', 'Searched the chat for “silver key”: 3 found (#6, #3, #2)'],
      ['chat-messages', 'Read messages #2–#3'],
      ['chat-search', 'Searched the chat for “dragon”: nothing found'],
      ['chat-messages', 'Read messages #6 (cut to fit)'],
    ]);
    expect(screen.queryByText(/weather/)).toBeNull();
  });

  it('a task that looked nothing up shows no lookup section', async () => {
    const journal = [await store.appendJournal({ runId: 'run-2', type: 'tool-call-end', taskId: 'quiet', data: { tool: 'workspace.read', ok: true } })];

    expect(taskLookups(journal, 'quiet')).toEqual([]);
    const { container } = render(<LookupList lookups={[]} />);
    expect(container.innerHTML).toBe('');
  });

  it('the list takes lookups of any kind, as lore lookups will add', () => {
    render(<LookupList lookups={[{ kind: 'lore-entry', label: 'Read “The Lighthouse” in Mira’s book' }]} />);

    expect(screen.getByText('Read “The Lighthouse” in Mira’s book').dataset['lookupKind']).toBe('lore-entry');
  });
});
