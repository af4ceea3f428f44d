// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AgentTaskRecord } from '../../../src/records/task';
import { openRunStore } from '../../../src/store/idb-run-store';
import type { RunStore } from '../../../src/store/run-store';
import { TaskList } from '../../../src/ui/side-panel/task-list';
import { buildTask, uniqueDatabaseName } from '../../support/record-builders';
import chineseMessages from '../../../public/_locales/zh_CN/messages.json';
import { CANCEL_REASONS } from '../../../src/runtime/cancel-reasons';
import { installEnglishMessages, installMessages } from '../../support/english-messages';

beforeAll(installEnglishMessages);

const NOW = 100_000;

function tasksInEveryState(): AgentTaskRecord[] {
  const usage = { rounds: 3, toolCalls: 5, promptTokens: 900, completionTokens: 334, totalTokens: 1_234 };
  return [
    buildTask({ id: 'queued', workspaceKey: 'researcher', status: 'queued', task: { title: 'Look up names', objective: 'o' } }),
    buildTask({ id: 'running', workspaceKey: 'scene-critic', status: 'running', startedAt: NOW - 65_000, usage, task: { title: 'Critique the scene', objective: 'o' } }),
    buildTask({ id: 'completed', workspaceKey: 'continuity-checker', status: 'completed', resultStatus: 'completed', startedAt: 1_000, endedAt: 13_000, usage, resultRef: 'agent-results/child-completed.json', task: { title: 'Check continuity', objective: 'o' } }),
    buildTask({ id: 'partial', workspaceKey: 'scene-critic-002', status: 'completed', resultStatus: 'partial', startedAt: 1_000, endedAt: 5_000, usage, task: { title: 'Second critique', objective: 'o' } }),
    buildTask({ id: 'failed', workspaceKey: 'researcher-002', status: 'failed', startedAt: 1_000, endedAt: 2_000, error: { code: 'provider-unavailable', message: 'The model endpoint refused the call.' }, task: { title: 'Research places', objective: 'o' } }),
    buildTask({ id: 'cancelled', workspaceKey: 'stylist', status: 'cancelled', startedAt: 1_000, endedAt: 3_000, task: { title: 'Polish style', objective: 'o' } }),
  ];
}

function rowOf(taskId: string): HTMLElement {
  const row = document.querySelector<HTMLElement>(`[data-task-id="${taskId}"]`);
  if (!row) throw new Error(`no row for ${taskId}`);
  return row;
}

describe('TaskList', () => {
  let store: RunStore;
  let cancelled: string[];

  beforeEach(async () => {
    store = await openRunStore({ name: uniqueDatabaseName() });
    cancelled = [];
  });
  afterEach(() => {
    cleanup();
    store.close();
  });

  function renderList(tasks = tasksInEveryState()) {
    return render(<TaskList tasks={tasks} store={store} now={NOW} onCancel={(taskId) => void cancelled.push(taskId)} />);
  }

  it('labels each task with its status, a partial capsule showing as Partial', () => {
    renderList();

    const statuses = ['queued', 'running', 'completed', 'partial', 'failed', 'cancelled'].map(
      (taskId) => rowOf(taskId).querySelector('.status-badge')?.textContent,
    );
    expect(statuses).toEqual(['Queued', 'Running', 'Completed', 'Partial', 'Failed', 'Cancelled']);
  });

  it('shows agent, title, elapsed time, rounds and tool calls against the budget, and tokens', () => {
    renderList();

    const running = within(rowOf('running'));
    expect(running.getByText('scene-critic')).toBeTruthy();
    expect(running.getByText('Critique the scene')).toBeTruthy();
    expect(running.getByText('Elapsed 1m 05s')).toBeTruthy();
    expect(running.getByText('Rounds 3/6')).toBeTruthy();
    expect(running.getByText('Tool calls 5/12')).toBeTruthy();
    expect(running.getByText(/1.234 tokens|1,234 tokens/)).toBeTruthy();
    expect(within(rowOf('completed')).getByText('Elapsed 12s')).toBeTruthy();
    expect(within(rowOf('queued')).queryByText(/Elapsed/)).toBeNull();
  });

  it('offers Cancel only on queued and running tasks, and cancelling names the task', () => {
    renderList();

    const cancellable = Array.from(document.querySelectorAll('[data-task-id]'))
      .filter((row) => within(row as HTMLElement).queryByRole('button', { name: /^Cancel task/ }))
      .map((row) => row.getAttribute('data-task-id'));
    expect(cancellable).toEqual(['queued', 'running']);

    fireEvent.click(screen.getByRole('button', { name: 'Cancel task Critique the scene' }));
    expect(cancelled).toEqual(['running']);
  });

  it('opens a finished task to its rendered result and its workspace files, with aria-expanded', async () => {
    await store.writeFile({ runId: 'run-1', path: 'agent-results/child-completed.json', updatedAt: 1, content: JSON.stringify({
      taskId: 'completed', workspaceKey: 'continuity-checker', agentId: 'continuity-checker', title: 'Check continuity',
      status: 'completed', summary: 'No contradictions found.', findings: ['Names are consistent.'], warnings: [],
      suggestedNextActions: [], questionsForCaller: [], artifacts: [{ path: 'summaries/notes.md' }], createdAt: 1,
    }) });
    await store.writeFile({ runId: 'run-1', path: 'summaries/agents/continuity-checker/result.md', updatedAt: 1, content: '# Continuity\n\nNo contradictions found. <script>bad()</script>' });
    await store.writeFile({ runId: 'run-1', path: 'summaries/agents/continuity-checker/notes.md', updatedAt: 1, content: 'Chapter 3: Anna is 30.' });
    renderList();
    const toggle = screen.getByRole('button', { name: 'continuity-checker Check continuity' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(toggle);

    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const row = within(rowOf('completed'));
    await waitFor(() => expect(row.getByRole('heading', { name: 'Continuity' })).toBeTruthy());
    expect(rowOf('completed').querySelector('script')).toBeNull();
    expect(row.getByText('summaries/notes.md')).toBeTruthy();
    expect(row.getByText('summaries/result.md')).toBeTruthy();
    fireEvent.click(row.getAllByRole('button', { name: 'Read' })[0]!);
    expect(row.getByText('Chapter 3: Anna is 30.')).toBeTruthy();
    expect(row.getByRole('button', { name: 'Copy summaries/notes.md' })).toBeTruthy();
  });

  it("folds the task's reasoning under its result, and shows no reasoning section for a task without any", async () => {
    await store.appendJournal({ runId: 'run-1', type: 'model-call-end', invocationId: 'child-completed', data: { round: 1, ok: true, reasoning: 'The inn scene says Anna is 30.' } });
    await store.appendJournal({ runId: 'run-1', type: 'model-call-end', invocationId: 'child-running', data: { round: 1, ok: true, reasoning: 'Another agent thinking.' } });
    renderList(tasksInEveryState().map((task) => ({ ...task, childInvocationId: `child-${task.id}` })));

    fireEvent.click(screen.getByRole('button', { name: 'continuity-checker Check continuity' }));

    const row = within(rowOf('completed'));
    const summary = await waitFor(() => row.getByText('Reasoning'));
    const details = summary.closest('details') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    expect(within(details).getByText('The inn scene says Anna is 30.')).toBeTruthy();
    expect(rowOf('completed').textContent).not.toContain('Another agent thinking.');
    fireEvent.click(screen.getByRole('button', { name: 'researcher-002 Research places' }));
    await waitFor(() => expect(within(rowOf('failed')).getByText('This task wrote no files.')).toBeTruthy());
    expect(within(rowOf('failed')).queryByText('Reasoning')).toBeNull();
  });

  it('opens a failed task to its error and a task without a capsule to a plain note', async () => {
    renderList();

    fireEvent.click(screen.getByRole('button', { name: 'researcher-002 Research places' }));

    const row = within(rowOf('failed'));
    expect(row.getByText('Error: The model endpoint refused the call.')).toBeTruthy();
    await waitFor(() => expect(row.getByText('No result yet: the task has not returned.')).toBeTruthy());
    expect(row.getByText('This task wrote no files.')).toBeTruthy();
  });

  it("folds away what Retinue told the writer about a failed task; the error line says it in the panel's language", async () => {
    const failedCapsule = (taskId: string) => ({
      taskId, workspaceKey: 'researcher-002', agentId: 'researcher', title: 'Research places', status: 'failed',
      summary: 'The task could not be finished: The model endpoint refused the call.', findings: [], warnings: [],
      suggestedNextActions: ['Go on without this result, or delegate the task again with a narrower objective.'], questionsForCaller: [], artifacts: [], createdAt: 1,
    });
    await store.writeFile({ runId: 'run-1', path: 'agent-results/child-failed.json', updatedAt: 1, content: JSON.stringify(failedCapsule('failed')) });
    // A helper that returned `failed` in its own words (no runtime error) keeps its result open.
    await store.writeFile({ runId: 'run-1', path: 'agent-results/child-own.json', updatedAt: 1, content: JSON.stringify({ ...failedCapsule('own'), summary: 'The chat holds no places to research.' }) });
    const tasks = [
      ...tasksInEveryState().map((task) => (task.id === 'failed' ? { ...task, resultRef: 'agent-results/child-failed.json', resultStatus: 'failed' as const } : task)),
      buildTask({ id: 'own', workspaceKey: 'researcher-003', status: 'completed', resultStatus: 'failed', startedAt: 1_000, endedAt: 2_000, resultRef: 'agent-results/child-own.json', task: { title: 'Research more', objective: 'o' } }),
    ];
    installMessages(chineseMessages);
    try {
      renderList(tasks);
      fireEvent.click(screen.getByRole('button', { name: 'researcher-002 Research places' }));
      const row = within(rowOf('failed'));
      expect(row.getByText('错误：The model endpoint refused the call.')).toBeTruthy();
      const told = await waitFor(() => row.getByText('告诉写作者的内容'));
      const details = told.closest('details') as HTMLDetailsElement;
      expect(details.open).toBe(false);
      expect(within(details).getByText(/The task could not be finished/)).toBeTruthy();

      fireEvent.click(screen.getByRole('button', { name: 'researcher-003 Research more' }));
      const own = within(rowOf('own'));
      await waitFor(() => expect(own.getByText(/The chat holds no places to research/)).toBeTruthy());
      expect(own.getByText(/The chat holds no places to research/).closest('details')).toBeNull();
    } finally {
      installEnglishMessages();
    }
  });

  it("says why a task was cancelled in the browser's language, and a provider's own words as they came", () => {
    installMessages(chineseMessages);
    try {
      renderList(tasksInEveryState().map((task) => (task.id === 'cancelled' ? { ...task, error: CANCEL_REASONS.spendCap } : task)));

      fireEvent.click(screen.getByRole('button', { name: 'stylist Polish style' }));
      expect(within(rowOf('cancelled')).getByText('错误：未开始：运行已达到令牌上限。')).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: 'researcher-002 Research places' }));
      expect(within(rowOf('failed')).getByText('错误：The model endpoint refused the call.')).toBeTruthy();
    } finally {
      installEnglishMessages();
    }
  });

  it('says so when the run has no delegated task', () => {
    renderList([]);

    expect(screen.getByText('The root agent has not delegated any task in this run.')).toBeTruthy();
  });
});
