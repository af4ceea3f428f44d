// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ReviewDecision } from '../../../src/records/task-review';
import { openRunStore } from '../../../src/store/idb-run-store';
import type { RunStore } from '../../../src/store/run-store';
import { ReviewQueue } from '../../../src/ui/side-panel/review-queue';
import { TaskList } from '../../../src/ui/side-panel/task-list';
import { buildTask, uniqueDatabaseName } from '../../support/record-builders';
import { installEnglishMessages } from '../../support/english-messages';

beforeAll(installEnglishMessages);

const held = buildTask({
  id: 'held',
  workspaceKey: 'scene-critic',
  status: 'completed',
  resultStatus: 'completed',
  resultRef: 'agent-results/child-held.json',
  review: { state: 'awaiting', requestedAt: 1 },
  task: { title: 'Critique the duel', objective: 'o' },
});

describe('ReviewQueue', () => {
  let store: RunStore;
  let decisions: Array<[string, ReviewDecision]>;

  beforeEach(async () => {
    store = await openRunStore({ name: uniqueDatabaseName() });
    decisions = [];
    await store.writeFile({ runId: 'run-1', path: 'agent-results/child-held.json', updatedAt: 1, content: JSON.stringify({
      taskId: 'held', workspaceKey: 'scene-critic', agentId: 'scene-critic', title: 'Critique the duel', status: 'completed',
      summary: 'The duel lacks stakes.', findings: ['The duke has no motive.'], warnings: [], suggestedNextActions: [],
      questionsForCaller: [], artifacts: [], createdAt: 1,
    }) });
    await store.writeFile({ runId: 'run-1', path: 'summaries/agents/scene-critic/result.md', updatedAt: 1, content: '# Critique the duel\n\nThe duel lacks stakes.' });
  });
  afterEach(() => {
    cleanup();
    store.close();
  });

  function renderQueue(tasks = [held, buildTask({ id: 'other', status: 'running' })], running = true) {
    return render(<ReviewQueue tasks={tasks} store={store} running={running} onReview={(taskId, decision) => void decisions.push([taskId, decision])} />);
  }

  it('shows each held result with Approve, Edit and Discard named after its task', async () => {
    renderQueue();

    expect(screen.getByRole('heading', { name: 'Waiting for your review (1)' })).toBeTruthy();
    await waitFor(() => expect(screen.getByText('The duel lacks stakes.')).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: 'Approve the result of scene-critic · Critique the duel' }));
    fireEvent.click(screen.getByRole('button', { name: 'Discard the result of scene-critic · Critique the duel' }));
    expect(decisions).toEqual([['held', { kind: 'approve' }], ['held', { kind: 'discard' }]]);
  });

  it('edits in a labelled field that takes the focus, prefilled with the result, and sends the edited text', async () => {
    renderQueue();
    await waitFor(() => expect(screen.getByText('The duel lacks stakes.')).toBeTruthy());

    fireEvent.click(screen.getByRole('button', { name: 'Edit the result of scene-critic · Critique the duel' }));
    const field = await waitFor(() => screen.getByLabelText('Your version of the result of scene-critic · Critique the duel') as HTMLTextAreaElement);
    expect(document.activeElement).toBe(field);
    expect(field.value).toContain('The duel lacks stakes.');
    expect(field.value).toContain('The duke has no motive.');
    fireEvent.input(field, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send edited result' }));
    expect(screen.getByRole('alert').textContent).toBe('Write the result, or discard it instead.');
    fireEvent.input(field, { target: { value: '  The duel is at dawn.  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send edited result' }));

    expect(decisions).toEqual([['held', { kind: 'edit', text: 'The duel is at dawn.' }]]);
  });

  it('shows nothing when no result waits; after the run ended a waiting result stays decidable for the next turn', () => {
    const { container } = renderQueue([buildTask({ id: 'other', status: 'running' })]);
    expect(container.textContent).toBe('');
    cleanup();
    renderQueue([held], false);
    expect(screen.getByText(/What you approve or edit reaches the writer with your next message/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Approve the result of scene-critic · Critique the duel' }));
    expect(decisions).toEqual([['held', { kind: 'approve' }]]);
  });

  it('marks a task row with where its review stands, an edit as edited by the user', () => {
    const edited = { ...held, id: 'edited', review: { state: 'edited' as const, requestedAt: 1, decidedAt: 2, editedText: 'Mine.' } };
    const lapsed = { ...held, id: 'lapsed', review: { state: 'discarded' as const, requestedAt: 1, decidedAt: 2, lapse: 'await-timeout' as const } };
    render(<TaskList tasks={[held, edited, lapsed]} store={store} now={10} onCancel={() => undefined} />);

    const marks = Array.from(document.querySelectorAll('.review-mark')).map((mark) => mark.textContent);
    expect(marks).toEqual(['Waiting for your review', 'Edited by you', 'Discarded: not reviewed in time']);
  });
});
