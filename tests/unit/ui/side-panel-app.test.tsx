// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openRunStore } from '../../../src/store/idb-run-store';
import type { RunStore } from '../../../src/store/run-store';
import { SidePanelApp } from '../../../src/ui/side-panel/side-panel-app';
import { createSidePanelState, type SidePanelState } from '../../../src/ui/side-panel/side-panel-state';
import { createFakePanelConnection, createMemorySettingsAccess } from '../../support/fake-panel-connection';
import { buildRun, buildTask, uniqueDatabaseName } from '../../support/record-builders';
import { installEnglishMessages } from '../../support/english-messages';

beforeAll(installEnglishMessages);

const SITE = 'http://127.0.0.1:8000';

describe('SidePanelApp', () => {
  let store: RunStore;
  let connection: ReturnType<typeof createFakePanelConnection>;
  let settings: ReturnType<typeof createMemorySettingsAccess>;
  let state: SidePanelState;

  beforeEach(async () => {
    store = await openRunStore({ name: uniqueDatabaseName() });
    connection = createFakePanelConnection();
    settings = createMemorySettingsAccess({ sites: [{ origin: SITE, enabled: true, adapter: 'sillytavern' }] });
    state = createSidePanelState({ store, connection, settings, refreshDelayMs: 1 });
  });
  afterEach(() => {
    cleanup();
    state.dispose();
    store.close();
  });

  /** A running run `run-1` whose root (profile `rootProfileId`) has made one model call. */
  async function storeRunWithOneRootCall(rootProfileId: string) {
    await store.putRun(buildRun({ id: 'run-1', status: 'running', createdAt: 1_000 }));
    await store.appendJournal({ runId: 'run-1', time: 1_000, type: 'run-start', invocationId: 'run-1-root', data: { rootProfileId } });
    await store.appendJournal({ runId: 'run-1', time: 1_100, type: 'model-call-start', invocationId: 'run-1-root', data: { round: 1, model: 'page model' } });
    await store.appendJournal({ runId: 'run-1', time: 2_000, type: 'model-call-end', invocationId: 'run-1-root', data: { round: 1, ok: true, toolCalls: 1, usage: { rounds: 1, promptTokens: 800, completionTokens: 40, totalTokens: 840 } } });
  }

  async function show(origin: string | null = SITE) {
    render(<SidePanelApp state={state} openOptions={() => undefined} />);
    await state.setOrigin(origin ?? undefined);
    await state.settled();
  }

  it('tells a new user what to do when there is no run yet', async () => {
    await show();

    expect(screen.getByRole('heading', { name: 'Nothing here yet' })).toBeTruthy();
    expect(screen.getByText(/Switch Retinue on for this site with the switch above/).textContent).toContain('(done)');
    expect(screen.getByText(SITE)).toBeTruthy();
    expect(screen.getByText('Adapter: sillytavern')).toBeTruthy();
  });

  it('shows the latest run of the site with its tasks and subscribes to the site', async () => {
    await store.putRun(buildRun({ id: 'old', title: 'Older turn', createdAt: 1_000 }));
    await store.putRun(buildRun({ id: 'new', title: 'Newest turn', createdAt: 2_000, status: 'running' }));
    await store.putTask(buildTask({ id: 'task-a', runId: 'new', status: 'running', startedAt: 2_000, task: { title: 'Critique', objective: 'o' } }));

    await show();

    expect(screen.getByRole('heading', { name: 'Newest turn' })).toBeTruthy();
    expect(within(document.querySelector<HTMLElement>('.task-list')!).getByText('Critique')).toBeTruthy();
    expect(connection.sent).toContainEqual({ type: 'subscribe-origin', origin: SITE });
    const history = within(screen.getByRole('region', { name: 'History' }));
    expect(history.getAllByRole('button', { name: /^Open run/ }).map((button) => button.textContent)).toEqual([
      expect.stringContaining('Newest turn'),
      expect.stringContaining('Older turn'),
    ]);
  });

  it('names a run that handed the turn to the page’s own model “Passed to page”, not “Failed”, and says why', async () => {
    await store.putRun(buildRun({ id: 'refused', title: 'Refused turn', status: 'failed', fallback: { code: 'tools-refused', reason: 'The endpoint said: tools are not supported.' } }));

    await show();

    const badges = Array.from(document.querySelectorAll('.status-badge')).map((badge) => badge.textContent);
    expect(badges).toEqual(['Passed to page', 'Passed to page']);
    expect(document.querySelector('.run-fallback')?.textContent).toContain('tools are not supported');
  });

  it('updates a task live when a journal event about it arrives', async () => {
    await store.putRun(buildRun({ id: 'run-1', status: 'running' }));
    await store.putTask(buildTask({ id: 'task-1', status: 'running', startedAt: 1_000 }));
    await show();
    expect(within(document.querySelector<HTMLElement>('[data-task-id="task-1"]')!).getByText('Running')).toBeTruthy();

    await store.putTask(buildTask({ id: 'task-1', status: 'completed', resultStatus: 'partial', startedAt: 1_000, endedAt: 9_000 }));
    connection.push({ runId: 'run-1', seq: 7, time: 9_000, type: 'task-end', taskId: 'task-1', data: {} });
    await state.settled();

    await waitFor(() => expect(within(document.querySelector<HTMLElement>('[data-task-id="task-1"]')!).getByText('Partial')).toBeTruthy());
  });

  it('reads the run’s journal for its cost line and timeline, and takes in new events as they are appended', async () => {
    await storeRunWithOneRootCall('writer');
    await show();
    expect(document.querySelector('.cost-total > span')!.textContent).toBe('1 model call');
    expect(document.querySelector('.timeline-row[data-bar-id="root"] .timeline-name')!.textContent).toBe('writer (root)');

    await store.appendJournal({ runId: 'run-1', time: 3_000, type: 'model-call-start', invocationId: 'run-1-root', data: { round: 2, model: 'page model' } });
    const ended = await store.appendJournal({ runId: 'run-1', time: 4_000, type: 'model-call-end', invocationId: 'run-1-root', data: { round: 2, ok: true, toolCalls: 0, usage: { rounds: 1, promptTokens: 900, completionTokens: 60, totalTokens: 960 } } });
    connection.push(ended);
    await state.settled();

    await waitFor(() => expect(document.querySelector('.cost-total')!.textContent).toContain('2 model calls'));
    expect(document.querySelector('.cost-total')!.textContent).toContain('1,700 tokens in, 100 out');
    expect(state.journal.value.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it('names the root by its profile name in the timeline and the cost by task, as its task rows do', async () => {
    // Seen on a real SillyTavern 1.18: task rows said "asked by the writer" while the cost and the timeline said "root".
    await storeRunWithOneRootCall('root');

    await show();

    expect(document.querySelector('.timeline-row[data-bar-id="root"] .timeline-name')!.textContent).toBe('Writer (root)');
    expect(document.querySelector('.cost-by-task .cost-task')!.textContent).toBe('Writer');
  });

  it('adds a newly delegated task and switches to a new run of the site', async () => {
    await store.putRun(buildRun({ id: 'run-1', status: 'running', title: 'First turn' }));
    await show();

    await store.putTask(buildTask({ id: 'task-new', task: { title: 'Fresh task', objective: 'o' } }));
    connection.push({ runId: 'run-1', seq: 3, time: 2, type: 'task-queued', taskId: 'task-new', data: {} });
    await state.settled();
    await waitFor(() => expect(within(document.querySelector<HTMLElement>('.task-list')!).getByText('Fresh task')).toBeTruthy());

    await store.putRun(buildRun({ id: 'run-2', status: 'running', title: 'Second turn', createdAt: 5_000 }));
    connection.push({ runId: 'run-2', seq: 1, time: 5_000, type: 'run-start', data: {} });
    await state.settled();
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Second turn' })).toBeTruthy());
  });

  it('cancels the running run and a running task through the Port', async () => {
    await store.putRun(buildRun({ id: 'run-1', status: 'running' }));
    await store.putTask(buildTask({ id: 'task-1', status: 'running', startedAt: 1_000, task: { title: 'Critique', objective: 'o' } }));
    await show();

    fireEvent.click(screen.getByRole('button', { name: 'Cancel run' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel task Critique' }));

    expect(connection.sent).toContainEqual({ type: 'cancel-run', runId: 'run-1' });
    expect(connection.sent).toContainEqual({ type: 'cancel-task', runId: 'run-1', taskId: 'task-1' });
  });

  it('opens a run from history, searches by text, and deletes a run', async () => {
    await store.putRun(buildRun({ id: 'dragon', title: 'The dragon scene', createdAt: 1_000 }));
    await store.putRun(buildRun({ id: 'market', title: 'The market scene', createdAt: 2_000, reply: 'Spices everywhere.' }));
    await show();

    fireEvent.click(screen.getByRole('button', { name: /^Open run The dragon scene\b/ }));
    await state.settled();
    expect(screen.getByRole('heading', { name: 'The dragon scene' })).toBeTruthy();
    expect(connection.sent).toContainEqual({ type: 'subscribe-run', runId: 'dragon' });

    fireEvent.input(screen.getByRole('searchbox', { name: 'Search runs' }), { target: { value: 'spices' } });
    expect(screen.queryByRole('button', { name: /^Open run The dragon scene\b/ })).toBeNull();
    expect(screen.getByRole('button', { name: /^Open run The market scene\b/ })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Delete run The market scene' }));
    expect(await store.getRun('market')).toBeDefined();
    const confirm = screen.getByRole('button', { name: 'Delete run The market scene for good' });
    expect(document.activeElement).toBe(confirm);
    fireEvent.click(confirm);
    await state.settled();
    expect(await store.getRun('market')).toBeUndefined();
    expect(screen.getByText('No run matches “spices”.')).toBeTruthy();
  });

  it('keeps a run when the user thinks better of deleting it', async () => {
    await store.putRun(buildRun({ id: 'keep-me', title: 'Keep me' }));
    await show();

    fireEvent.click(screen.getByRole('button', { name: 'Delete run Keep me' }));
    fireEvent.click(screen.getByRole('button', { name: 'Keep' }));

    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Delete run Keep me' }));
    expect(await store.getRun('keep-me')).toBeDefined();
  });

  it('lists all sites on request, naming each run’s site', async () => {
    await store.putRun(buildRun({ id: 'here', title: 'Here', createdAt: 1_000 }));
    await store.putRun(buildRun({ id: 'there', title: 'There', origin: 'http://localhost:9000', createdAt: 2_000 }));
    await show();
    expect(screen.queryByRole('button', { name: /^Open run There\b/ })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'All sites' }));
    await state.settled();

    expect(screen.getByRole('button', { name: /^Open run There\b/ }).textContent).toContain('http://localhost:9000');
  });

  it('pages a long history: 50 rows first, more on request', async () => {
    for (let index = 0; index < 60; index += 1) await store.putRun(buildRun({ id: `run-${index}`, title: `Turn ${index}`, createdAt: index }));
    await show();

    expect(screen.getAllByRole('button', { name: /^Open run/ })).toHaveLength(50);
    fireEvent.click(screen.getByRole('button', { name: /Show more/ }));
    expect(screen.getAllByRole('button', { name: /^Open run/ })).toHaveLength(60);
  });

  it('switches the site and Retinue as a whole', async () => {
    await show('http://localhost:5000');
    const siteSwitch = screen.getByRole('switch', { name: 'On for this site' }) as HTMLInputElement;
    expect(siteSwitch.checked).toBe(false);
    expect(screen.getByText(/Switch Retinue on for this site/).textContent).not.toContain('(done)');

    fireEvent.click(siteSwitch);
    await waitFor(() => expect(settings.switches).toEqual([{ origin: 'http://localhost:5000', enabled: true }]));
    fireEvent.click(screen.getByRole('switch', { name: 'Retinue on' }));

    await waitFor(() => expect(screen.getByText(/Retinue is off on every site/)).toBeTruthy());
    expect(settings.current().enabled).toBe(false);
  });

  it('names each agent of the memory after the reply by its profile name, built-in ones included', async () => {
    // Seen on a real SillyTavern 1.18: with the built-ins not in the settings document the panel showed "root".
    await store.putRun(buildRun({ id: 'run-1', status: 'completed', reply: 'The knight bows.' }));
    await store.putMemoryVersion({
      conversationId: 'chat-1',
      lineKey: 'line-1',
      runId: 'run-1',
      createdAt: 1_000,
      agents: { root: [{ path: 'plan.md', content: 'Slow scene.' }], 'continuity-checker': [{ path: 'state.md', content: 'Knight: in the hall.' }] },
    });
    await show();

    const region = await screen.findByRole('region', { name: 'Memory after this reply' });
    const names = Array.from(region.querySelectorAll('.agent-memory-agent h4')).map((heading) => heading.textContent);
    expect(names).toEqual(['Writer', 'Continuity checker']);
  });

  it('says when the tab shows no web page', async () => {
    await show(null);

    expect(screen.getByText(/Retinue cannot work on this tab/)).toBeTruthy();
  });
});
