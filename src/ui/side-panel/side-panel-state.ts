import { computed, effect, signal, type ReadonlySignal, type Signal } from '@preact/signals';
import type { JournalEvent } from '../../records/journal';
import type { AgentRun } from '../../records/run';
import type { AgentTaskRecord } from '../../records/task';
import type { Settings } from '../../settings/schema';
import type { RunStore } from '../../store/run-store';
import type { PanelSettingsAccess } from '../settings-access';
import type { PanelConnection } from './panel-connection';
import { matchesQuery } from './run-search';
import { panelRefusalText } from './panel-refusals';
import { createHistoryKeeper, HISTORY_STATUS_EVENTS } from './history-entries';
import { shownRunActions, type ShownRunActions } from './shown-run-actions';

export type HistoryScope = 'site' | 'all';


export interface SidePanelDependencies {
  store: RunStore;
  connection: PanelConnection;
  settings: PanelSettingsAccess;
  now?: () => number;
  /** History rows rendered at first and added by "Show more" (default 50). */
  historyPageSize?: number;
  /** How many runs history loads for searching (default 2,000). */
  historyLoadLimit?: number;
  /** Delay that gathers a burst of journal events into one re-read (default 40 ms). */
  refreshDelayMs?: number;
}

/** Everything the side panel shows, as signals, and what the user can do. */
export interface SidePanelState extends ShownRunActions {
  origin: Signal<string | undefined>;
  settings: Signal<Settings | undefined>;
  run: Signal<AgentRun | undefined>;
  tasks: Signal<AgentTaskRecord[]>;
  /** The shown run's journal, in order (the timeline and the cost line are read from it). */
  journal: Signal<JournalEvent[]>;
  /** Set when the user opened a run from history; the panel then stops following the latest run. */
  pinnedRunId: Signal<string | undefined>;
  historyScope: Signal<HistoryScope>;
  query: Signal<string>;
  history: Signal<AgentRun[]>;
  visibleHistory: ReadonlySignal<AgentRun[]>;
  matchingHistoryCount: ReadonlySignal<number>;
  now: Signal<number>;
  /** A short message after something failed (permission refused, store error). */
  notice: Signal<string | undefined>;
  store: RunStore;
  settingsAccess: PanelSettingsAccess;
  setOrigin(origin: string | undefined): Promise<void>;
  openRun(runId: string): Promise<void>;
  followLatest(): Promise<void>;
  showMoreHistory(): void;
  refreshHistory(): Promise<void>;
  deleteRun(runId: string): Promise<void>;
  /** Applies one journal event (exposed for tests and the benchmark). */
  applyEvent(event: JournalEvent): void;
  /** Resolves once pending re-reads have landed. */
  settled(): Promise<void>;
  dispose(): void;
}

/** Builds the side panel state and wires it to the store, the Port and the settings. */
export function createSidePanelState(dependencies: SidePanelDependencies): SidePanelState {
  const { store, connection } = dependencies;
  const clock = dependencies.now ?? Date.now;
  const pageSize = dependencies.historyPageSize ?? 50;
  const historyLoadLimit = dependencies.historyLoadLimit ?? 2_000;
  const origin = signal<string | undefined>(undefined);
  const settings = signal<Settings | undefined>(undefined);
  const run = signal<AgentRun | undefined>(undefined);
  const tasks = signal<AgentTaskRecord[]>([]);
  const journal = signal<JournalEvent[]>([]);
  const pinnedRunId = signal<string | undefined>(undefined);
  const historyScope = signal<HistoryScope>('site');
  const query = signal('');
  const history = signal<AgentRun[]>([]);
  const visibleCount = signal(pageSize);
  const now = signal(clock());
  const notice = signal<string | undefined>(undefined);

  const matchingHistory = computed(() => history.value.filter((entry) => matchesQuery(entry, query.value)));
  const visibleHistory = computed(() => matchingHistory.value.slice(0, visibleCount.value));
  const matchingHistoryCount = computed(() => matchingHistory.value.length);

  const dirtyTaskIds = new Set<string>();
  let runDirty = false;
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;
  let pending: Promise<void> = Promise.resolve();

  function report(error: unknown): void {
    notice.value = error instanceof Error ? error.message : String(error);
  }

  function track(work: Promise<void>): Promise<void> {
    const tracked = work.catch(report);
    pending = pending.then(() => tracked);
    return tracked;
  }

  /** Counts the runs asked to be shown: the reads of one asked before another are not shown over it. */
  let showRequests = 0;

  async function showRun(runId: string | undefined): Promise<void> {
    const request = (showRequests += 1);
    if (!runId) {
      run.value = undefined;
      tasks.value = [];
      journal.value = [];
      return;
    }
    const [loadedRun, loadedTasks, loadedJournal] = await Promise.all([store.getRun(runId), store.listTasks(runId), store.readJournal(runId)]);
    if (request !== showRequests) return;
    run.value = loadedRun;
    tasks.value = loadedTasks;
    journal.value = loadedJournal;
  }

  async function showLatest(): Promise<void> {
    const currentOrigin = origin.value;
    if (!currentOrigin) return showRun(undefined);
    const [latest] = await store.listRuns({ origin: currentOrigin, limit: 1 });
    await showRun(latest?.id);
  }

  const historyKeeper = createHistoryKeeper({
    store,
    history,
    scope: () => ({ origin: origin.value, siteOnly: historyScope.value === 'site' }),
    limit: historyLoadLimit,
    report,
  });
  const refreshHistory = () => historyKeeper.readWhole();

  function subscribe(): void {
    if (pinnedRunId.value) connection.subscribeRun(pinnedRunId.value);
    else if (origin.value) connection.subscribeOrigin(origin.value);
  }

  async function flush(): Promise<void> {
    refreshTimer = undefined;
    const current = run.value;
    if (!current) return;
    const taskIds = [...dirtyTaskIds];
    dirtyTaskIds.clear();
    const rereadRun = runDirty;
    runDirty = false;
    const knownJournal = journal.value;
    const [freshRun, newEvents, ...freshTasks] = await Promise.all([
      rereadRun ? store.getRun(current.id) : Promise.resolve(current),
      // Only the events after the last one shown: the journal is append-only.
      store.readJournal(current.id, (knownJournal.at(-1)?.seq ?? 0) + 1),
      ...taskIds.map((taskId) => store.getTask(taskId)),
    ]);
    if (run.value?.id !== current.id) return;
    if (freshRun) run.value = freshRun;
    const lastSeq = journal.value.at(-1)?.seq ?? 0;
    const unseen = newEvents.filter((event) => event.seq > lastSeq);
    if (unseen.length > 0) journal.value = [...journal.value, ...unseen];
    let nextTasks = tasks.value;
    for (const task of freshTasks) {
      if (!task || task.runId !== current.id) continue;
      const index = nextTasks.findIndex((known) => known.id === task.id);
      nextTasks = index === -1 ? [...nextTasks, task] : nextTasks.map((known, at) => (at === index ? task : known));
    }
    tasks.value = nextTasks;
  }

  function scheduleFlush(): void {
    if (refreshTimer !== undefined) return;
    const delay = dependencies.refreshDelayMs ?? 40;
    const scheduled = new Promise<void>((resolve) => {
      refreshTimer = setTimeout(() => void flush().catch(report).finally(resolve), delay);
    });
    pending = pending.then(() => scheduled);
  }

  /**
   * The run a `run-start` is being read for. Its reads may begin before its later events are stored
   * (a run that falls open ends within milliseconds of its start): an event of it that comes
   * meanwhile has it read again, rather than being dropped as another run's.
   */
  let loading: { runId: string; eventsMeanwhile: boolean } | undefined;

  async function showNewRun(runId: string): Promise<void> {
    const load = { runId, eventsMeanwhile: false };
    loading = load;
    await showRun(runId);
    while (loading === load && load.eventsMeanwhile) {
      load.eventsMeanwhile = false;
      await showRun(runId);
    }
    if (loading === load) loading = undefined;
  }

  function applyEvent(event: JournalEvent): void {
    if (HISTORY_STATUS_EVENTS.has(event.type)) {
      const kept = historyKeeper.keep(event.runId);
      pending = pending.then(() => kept);
    }
    const current = run.value;
    if (loading?.runId === event.runId) {
      loading.eventsMeanwhile = true;
      return;
    }
    const isNewRun = event.type === 'run-start' && current?.id !== event.runId;
    if (isNewRun && !pinnedRunId.value) {
      void track(showNewRun(event.runId));
      return;
    }
    if (!current || event.runId !== current.id) return;
    runDirty = true;
    const taskId =
      event.taskId ?? tasks.value.find((task) => event.invocationId && task.childInvocationId === event.invocationId)?.id;
    if (taskId) dirtyTaskIds.add(taskId);
    scheduleFlush();
  }

  async function reloadAll(): Promise<void> {
    await Promise.all([pinnedRunId.value ? showRun(pinnedRunId.value) : showLatest(), refreshHistory()]);
  }

  /** Runs the background deleted (retention, a site's quota) leave history; a shown one gives way to the latest. */
  async function dropDeleted(runIds: readonly string[]): Promise<void> {
    historyKeeper.drop(runIds);
    if (!run.value || !runIds.includes(run.value.id)) return;
    loading = undefined;
    pinnedRunId.value = undefined;
    subscribe();
    await showLatest();
  }

  const stopEvents = connection.onEvent(applyEvent);
  const stopDeletions = connection.onRunsDeleted((runIds) => void track(dropDeleted(runIds)));
  const stopReconnect = connection.onReconnect(() => {
    subscribe();
    void track(reloadAll());
  });
  const stopErrors = connection.onError((message, code) => (notice.value = panelRefusalText(code, message)));
  const stopSettings = dependencies.settings.onChanged((next) => (settings.value = next));
  void track(dependencies.settings.load().then((loaded) => void (settings.value = loaded)));

  // Elapsed times tick once a second, only while something is running.
  const stopClock = effect(() => {
    if (run.value?.status !== 'running') return;
    const timer = setInterval(() => (now.value = clock()), 1_000);
    return () => clearInterval(timer);
  });

  return {
    origin, settings, run, tasks, journal, pinnedRunId, historyScope, query, history, visibleHistory, matchingHistoryCount,
    now, notice, store, settingsAccess: dependencies.settings,
    setOrigin(next) {
      loading = undefined;
      origin.value = next;
      pinnedRunId.value = undefined;
      visibleCount.value = pageSize;
      subscribe();
      return track(reloadAll());
    },
    openRun(runId) {
      loading = undefined;
      pinnedRunId.value = runId;
      subscribe();
      return track(showRun(runId));
    },
    followLatest() {
      loading = undefined;
      pinnedRunId.value = undefined;
      subscribe();
      return track(showLatest());
    },
    showMoreHistory() {
      visibleCount.value += pageSize;
    },
    refreshHistory: () => track(refreshHistory()),
    deleteRun(runId) {
      return track(
        store.deleteRun(runId).then(async () => {
          if (run.value?.id === runId) {
            pinnedRunId.value = undefined;
            await showLatest();
          }
          await refreshHistory();
        }),
      );
    },
    ...shownRunActions(connection, run),
    applyEvent,
    settled: async () => {
      // Work can queue more work (an event's re-read refreshes history): wait until it stops.
      let seen: Promise<void> | undefined;
      while (seen !== pending) {
        seen = pending;
        await seen;
      }
    },
    dispose() {
      stopEvents();
      stopDeletions();
      stopReconnect();
      stopErrors();
      stopSettings();
      stopClock();
      if (refreshTimer !== undefined) clearTimeout(refreshTimer);
      connection.close();
    },
  };
}
