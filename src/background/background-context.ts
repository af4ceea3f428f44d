import type { ReviewDecision } from '../records/task-review';
import type { AgentRuntime } from '../runtime/agent-runtime';
import type { ReviewOutcome } from '../runtime/task-review';
import { createAgentRuntime } from '../runtime/create-agent-runtime';
import { resolveProfiles } from '../profiles/built-in-profiles';
import type { Settings } from '../settings/schema';
import { loadSettings, onSettingsChanged, onSettingsStale } from '../settings/settings-store';
import { openRunStore } from '../store/idb-run-store';
import type { RunStore } from '../store/run-store';
import { createBackgroundKeepAlive, type BackgroundKeepAlive } from './background-keep-alive';
import { createRunClaims, type RunClaims } from './run-claims';
import { applyEndedRunReview } from '../runtime/ended-run-review';
import { keyedConnectionIdsOf } from '../runtime/limits/spend-cap';
import { betweenTurnsRefusal } from '../runtime/between-turns';
import { createBetweenTurnsRequests, type BetweenTurnsRequests } from './between-turns-requests';

/** The old runtimes kept reachable for cancel actions while their runs finish. */
const RETIRED_RUNTIMES_KEPT = 8;

/**
 * What the background's services share: one store (so the side panel's journal subscription sees
 * every event), the current settings, and ONE runtime built from them. Everything opens lazily.
 */
export interface BackgroundContext {
  getStore(): Promise<RunStore>;
  getSettings(): Promise<Settings>;
  /** The runtime for new runs, rebuilt from the settings after they change. */
  getRuntime(): Promise<AgentRuntime>;
  /** Cancels a run whichever runtime drives it (the side panel's cancel). */
  cancelRun(runId: string, reason?: string): void;
  cancelTask(runId: string, taskId: string): void;
  /** The side panel's Approve, Edit or Discard on a result waiting for review, whichever runtime drives the run. */
  reviewTask(runId: string, taskId: string, decision: ReviewDecision): Promise<ReviewOutcome>;
  /** A side-panel note for the root or a running task, whichever runtime drives the run. */
  sendGuidance(runId: string, request: { taskId?: string; text: string }): Promise<{ ok: true } | { ok: false; code: string; message: string }>;
  /** The side panel's Run button, whichever runtime drives the run. */
  runAgent(runId: string, agentId: string): Promise<{ ok: true } | { ok: false; code: string; message: string }>;
  /** The Run button on an ended run: a page carries the helper, the run port handler answers here. */
  betweenTurns: BetweenTurnsRequests;
  /** Resume or interrupt: who decides about the runs left `running` when this background started. */
  runClaims: RunClaims;
  /** Holds the background awake while a run (or anything still working for one) is in flight. */
  keepAlive: BackgroundKeepAlive;
}

export interface BackgroundContextOptions {
  openStore?: () => Promise<RunStore>;
  loadSettings?: () => Promise<Settings>;
  /** Subscribes to settings changes; returns the unsubscribe function. */
  watchSettings?: (listener: (settings: Settings) => void) => () => void;
  createRuntime?: typeof createAgentRuntime;
  keepAlive?: BackgroundKeepAlive;
  betweenTurns?: BetweenTurnsRequests;
}

/**
 * Creates the shared background context. A settings change makes the next `getRuntime` build a new
 * runtime with the new profiles; runs already working keep theirs to the end, and cancel actions
 * reach them through `cancelRun`/`cancelTask`.
 */
export function createBackgroundContext(options: BackgroundContextOptions = {}): BackgroundContext {
  const openStore = options.openStore ?? (() => openRunStore());
  const readSettings = options.loadSettings ?? loadSettings;
  const createRuntime = options.createRuntime ?? createAgentRuntime;
  let store: Promise<RunStore> | undefined;
  let settings: Promise<Settings> | undefined;
  let runtime: Promise<AgentRuntime> | undefined;
  const runtimes: AgentRuntime[] = [];
  const betweenTurns = options.betweenTurns ?? createBetweenTurnsRequests();

  const getStore = () => (store ??= openStore());
  const getSettings = () => (settings ??= readSettings());
  const getRuntime = () =>
    (runtime ??= Promise.all([getStore(), getSettings()]).then(([openedStore, current]) => {
      const created = createRuntime({
        store: openedStore,
        profiles: resolveProfiles(current),
        defaults: current.defaults,
        keyedConnectionIds: keyedConnectionIdsOf(current),
      });
      runtimes.unshift(created);
      runtimes.splice(RETIRED_RUNTIMES_KEPT + 1);
      return created;
    }));

  // A change drops the cached settings at once (the next read is fresh), then the reloaded ones land.
  if (!options.watchSettings) {
    onSettingsStale(() => {
      settings = undefined;
      runtime = undefined;
    });
  }
  (options.watchSettings ?? onSettingsChanged)((next) => {
    settings = Promise.resolve(next);
    runtime = undefined;
  });

  return {
    getStore,
    getSettings,
    getRuntime,
    cancelRun: (runId, reason) => runtimes.forEach((each) => each.cancelRun(runId, reason)),
    cancelTask: (runId, taskId) => runtimes.forEach((each) => each.cancelTask(runId, taskId)),
    async reviewTask(runId, taskId, decision) {
      for (const each of runtimes) {
        const outcome = await each.reviewTask(runId, taskId, decision);
        if (outcome) return outcome;
      }
      // No runtime since the worker started: a run that ended is decided on its stored records.
      const ended = await applyEndedRunReview(await getStore(), runId, taskId, decision, Date.now());
      if (ended) return ended;
      return {
        ok: false,
        code: 'run-not-active',
        message: 'This run is not working right now, so the decision cannot reach it. If its page is still waiting, try again in a moment.',
      };
    },
    async sendGuidance(runId, request) {
      for (const each of runtimes) {
        const outcome = await each.sendGuidance(runId, request);
        if (outcome) return outcome;
      }
      return { ok: false, code: 'run-not-active', message: 'This run is not working right now, so a note cannot reach it. Write it in the chat instead.' };
    },
    async runAgent(runId, agentId) {
      for (const each of runtimes) {
        const outcome = await each.runAgent(runId, agentId);
        if (outcome) return outcome;
      }
      // Between turns: the conversation's latest run, ended with its reply, is taken up again for the helper.
      const openedStore = await getStore();
      const run = await openedStore.getRun(runId);
      const profiles = new Map(resolveProfiles(await getSettings()).map((profile) => [profile.id, profile]));
      const allowed = run ? await betweenTurnsRefusal(openedStore, profiles, runId, agentId) : undefined;
      if (!run || !allowed) return { ok: false, code: 'run-agent-no-run', message: 'This run is no longer stored; open the latest run of the chat and try again.' };
      return allowed.ok ? betweenTurns.ask({ runId, agentId, origin: run.origin }) : allowed;
    },
    betweenTurns,
    runClaims: createRunClaims(),
    keepAlive: options.keepAlive ?? createBackgroundKeepAlive(),
  };
}

let shared: BackgroundContext | undefined;

/** The one context of this background (service worker or event page), created on first use. */
export function sharedBackgroundContext(): BackgroundContext {
  return (shared ??= createBackgroundContext());
}
