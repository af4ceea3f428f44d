import { CancelledError, HostContractError, RetinueError } from '../errors';
import { promptSnapshotSchema, type PromptSnapshot } from '../hosts/prompt-snapshot';
import type { AgentInvocation } from '../records/invocation';
import type { AgentRun } from '../records/run';
import { addUsage, emptyUsage } from '../records/usage';
import { PROMPT_SNAPSHOT_PATH } from '../workspace/layout';
import type { AgentRuntime, AgentRuntimeOptions, BetweenTurnsOptions, BetweenTurnsStart, ResumeRunOptions, RunOutcome } from './agent-runtime';
import { profileBudget } from './budget';
import { chatMessageText } from '../hosts/chat-text';
import { PageModelFallbackError } from './fail-open';
import { runChildTask } from './child-task';
import { RUN_HISTORY_CAP_BYTES } from './limits/history-cap';
import { profilesUseKeyedConnection, runTokenCapOf } from './limits/spend-cap';
import { cancelTask, completeEndRecords } from './task-ending';
import { hostFeaturesOf, rootPolicy } from './invocation-policy';
import { rootMessages } from './root-context';
import { runRoot } from './root-run';
import { RunSession, type RunSessionOptions, type RuntimeEnvironment } from './run-session';
import { RunSuspendedError } from './run-signals';
import { chatIdentityOf } from './chat-identity';
import { carryReusedHelperMemory, memorySeedFiles, memoryToStartFrom } from './agent-memory';
import { asResumed, EARLIER_FOLDER, type EarlierResult, findEarlierResults, renderEarlierSection, takeEarlierResults, withEarlierSection } from './earlier-results';
import { applyReviewDecision } from './task-review';
import { withoutProgressLines } from './snapshot-without-progress';
import { parentTaskOf } from './task-tree';
import { applyEndedRunReview } from './ended-run-review';
import { planCadence, renderCadenceSection } from './cadence';
import { runOnDemand, startCadenceHelpers } from './cadence-start';
import { sendGuidance } from './guidance';
import { betweenTurnsRefusal, isReopenedRun, reopenForHelper, runAgainBetweenTurns, runBetweenTurns } from './between-turns';
import { CANCEL_REASONS, cancelledFor } from './cancel-reasons';

const TITLE_CHARS = 80;

/** A run's title: the start of the last user message. */
function titleOf(snapshot: PromptSnapshot): string {
  const lastUser = [...snapshot.messages].reverse().find((message) => message.role === 'user');
  const text = (lastUser ? chatMessageText(lastUser) : '').replace(/\s+/g, ' ').trim();
  if (text === '') return 'Chat turn';
  return text.length > TITLE_CHARS ? `${text.slice(0, TITLE_CHARS - 1)}…` : text;
}

/** The assistant message before the request's last user message: the reply the page shows for the turn before. */
function previousReplyOf(snapshot: PromptSnapshot): string | undefined {
  const lastUser = snapshot.messages.findLastIndex((message) => message.role === 'user');
  const before = snapshot.messages.slice(0, Math.max(0, lastUser)).findLast((message) => message.role === 'assistant');
  return before ? chatMessageText(before) : undefined;
}

function createSession(environment: RuntimeEnvironment, options: Omit<RunSessionOptions, 'environment' | 'runChildTask'>): RunSession {
  return new RunSession({ environment, ...options, runChildTask });
}

/**
 * The agent runtime: one run per chat turn, a root that may delegate return-mode tasks to
 * children running in the background, everything recorded in the store so that a new runtime
 * can resume a run from the store alone.
 *
 * @example
 * const runtime = createAgentRuntime({ store: await openRunStore(), profiles, defaults });
 * const { run, reply } = await runtime.startRun({ origin, adapter: 'openai-chat', snapshot, resolveModel });
 */
export function createAgentRuntime(options: AgentRuntimeOptions): AgentRuntime {
  const environment: RuntimeEnvironment = {
    store: options.store,
    profiles: new Map(options.profiles.map((profile) => [profile.id, profile])),
    defaults: options.defaults,
    now: options.now ?? Date.now,
    newId: options.newId ?? (() => crypto.randomUUID()),
    ...(options.journalIdleMs !== undefined ? { journalIdleMs: options.journalIdleMs } : {}),
  };
  const sessions = new Map<string, { session: RunSession; done: Promise<RunOutcome> }>();
  const usesKeyedConnection = profilesUseKeyedConnection(options.profiles, options.keyedConnectionIds ?? []);

  /** Builds the session of a run from its records alone (a resumed run, or one taken up again between turns). */
  async function sessionFromStore(run: AgentRun, snapshot: PromptSnapshot, callbacks: ResumeRunOptions, earlierResults: readonly EarlierResult[]): Promise<{ session: RunSession; invocations: AgentInvocation[] }> {
    const tasks = await environment.store.listTasks(run.id);
    // The run's usage is saved at its end; until then each invocation's, saved every round, is the truth.
    const invocations = await environment.store.listInvocations(run.id);
    environment.store.countStored?.({ invocations });
    const usage = invocations.reduce((total, invocation) => addUsage(total, invocation.usage), emptyUsage());
    const session = createSession(environment, { run: { ...run, usage }, snapshot, tasks, resolveModel: callbacks.resolveModel, onProgress: callbacks.onProgress, onReplyStream: callbacks.onReplyStream, onEarlyReply: callbacks.onEarlyReply, earlierResults, lore: callbacks.lore });
    return { session, invocations };
  }

  async function storedSnapshot(runId: string): Promise<PromptSnapshot> {
    const snapshotFile = await environment.store.readFile(runId, PROMPT_SNAPSHOT_PATH);
    if (!snapshotFile) throw new HostContractError('snapshot-missing', `Run ${runId} has no prompt snapshot to resume from.`);
    // What an earlier worker wrote counts toward the run's history cap here too (with its histories, below).
    environment.store.countStored?.({ files: [snapshotFile] });
    return promptSnapshotSchema.parse(JSON.parse(snapshotFile.content));
  }

  const reopening = new Set<string>();

  /** The Run button on a run this runtime drives: in the turn, or on a run taken up again between turns. */
  async function runInActive(session: RunSession, agentId: string): Promise<{ ok: true } | { ok: false; code: string; message: string }> {
    const root = await environment.store.getInvocation(session.run.rootInvocationId);
    return root && isReopenedRun(session.run, root) ? runAgainBetweenTurns(session, root, agentId) : runOnDemand(session, agentId);
  }

  async function reopenBetweenTurns(runId: string, start: BetweenTurnsOptions): Promise<BetweenTurnsStart> {
    const allowed = await betweenTurnsRefusal(environment.store, environment.profiles, runId, start.agentId);
    if (!allowed.ok) return allowed;
    const root = await environment.store.getInvocation(allowed.run.rootInvocationId);
    if (!root) throw new HostContractError('invocation-missing', `Run ${runId} has no root invocation in the store.`);
    const { session, invocations } = await sessionFromStore(allowed.run, await storedSnapshot(runId), start, []);
    await completeEndRecords(session, invocations);
    const opened = await reopenForHelper(session, root, allowed.profile);
    if (!opened.ok) return opened;
    return { ok: true, done: drive(session, root, start.signal, runBetweenTurns) };
  }

  async function drive(session: RunSession, root: AgentInvocation, signal: AbortSignal | undefined, driver: typeof runRoot = runRoot): Promise<RunOutcome> {
    // A fail-open ending (a limit the turn met) keeps its reason; any other abort is the page stopping.
    const stop = (): void =>
      session.controller.abort(signal?.reason instanceof PageModelFallbackError ? signal.reason : cancelledFor(CANCEL_REASONS.pageStopped));
    if (signal?.aborted) stop();
    signal?.addEventListener('abort', stop, { once: true });
    const done = driver(session, root);
    sessions.set(session.run.id, { session, done });
    try {
      return await done;
    } finally {
      signal?.removeEventListener('abort', stop);
      sessions.delete(session.run.id);
    }
  }

  return {
    async startRun(start) {
      const parsed = promptSnapshotSchema.safeParse(start.snapshot);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new HostContractError('snapshot-invalid', `The chat turn to run is not a valid request: ${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}.`);
      }
      // Progress lines a page kept from earlier turns are Retinue's words, not the conversation's.
      const snapshot = withoutProgressLines(parsed.data);
      const now = environment.now();
      const runId = environment.newId();
      const rootId = environment.newId();
      const rootProfileId = start.rootProfileId ?? environment.defaults.rootProfileId;
      const profile = environment.profiles.get(rootProfileId);
      // The run's limits are fixed on its record now, so a resumed run has the same ones (limits/).
      const tokenCap = profile ? runTokenCapOf(profile, environment.defaults, usesKeyedConnection) : undefined;
      const run: AgentRun = {
        id: runId,
        origin: start.origin,
        adapter: start.adapter,
        title: titleOf(snapshot),
        status: 'running',
        rootInvocationId: rootId,
        createdAt: now,
        usage: emptyUsage(),
        chat: chatIdentityOf(snapshot, start.chat),
        ...(start.replyDeadlineMs ? { replyDueAt: now + start.replyDeadlineMs } : {}),
        ...(tokenCap !== undefined ? { tokenCap } : {}),
        historyCapBytes: options.historyCapBytes ?? RUN_HISTORY_CAP_BYTES,
      };
      // Results of earlier runs of this conversation that the root has not had yet (issue 12), and
      // every agent's memory/ as it stood after the reply this turn continues (agent-memory.ts).
      const [earlier, memory] = run.chat
        ? await Promise.all([findEarlierResults(environment.store, run, run.chat, { previousReply: previousReplyOf(snapshot) }), memoryToStartFrom(environment.store, run.chat.conversationId, snapshot)])
        : [[], undefined];
      const policy = profile ? rootPolicy(profile, hostFeaturesOf(start.adapter)) : undefined;
      // Helpers that run every turn (or every N turns) start before the root's first call (cadence.ts).
      const cadence = planCadence({ profiles: environment.profiles.values(), rootProfileId, snapshot, earlier });
      const opening = profile && policy ? withEarlierSection(withEarlierSection(rootMessages(snapshot, profile, policy), renderEarlierSection(earlier)), renderCadenceSection(cadence)) : [];
      const root: AgentInvocation = {
        id: rootId,
        runId,
        profileId: rootProfileId,
        kind: 'root',
        // Stored running: the run, its snapshot, its root and its first event are one step.
        status: 'running',
        exitPolicy: 'runFinishAllowed',
        budget: profile ? profileBudget(profile) : { maxRounds: 1, maxToolCalls: 0 },
        usage: emptyUsage(),
        providerSessionId: `${runId}:${rootId}`,
        messages: opening,
        depth: 0,
        createdAt: now,
      };
      // The run's first step: the run, the page's chat (the root's history refers to it), the memory
      // it starts from, the root and the run's first event, stored together or not at all. The first
      // model call does not wait for it: every later write and read of the run comes after it (the
      // store keeps their order), its failure fails the run fast (the page falls back to its own
      // model, as before), and the run's end waits for it (the journal's flush).
      const firstStep = environment.store.saveStep({
        run,
        files: [{ runId, path: PROMPT_SNAPSHOT_PATH, content: JSON.stringify(snapshot), updatedAt: now }, ...memorySeedFiles(runId, memory, now)],
        invocations: [root],
        journal: [{ runId, type: 'run-start', time: now, invocationId: rootId, data: { origin: run.origin, adapter: run.adapter, rootProfileId, title: run.title } }],
      });
      firstStep.catch(() => undefined);
      const reused = cadence.heldByLedger.flatMap((held) => {
        const result = earlier.find((candidate) => candidate.kind === 'same-message' && candidate.task.targetProfileId === held.id);
        return result ? [{ agentId: held.id, fromRunId: result.task.runId }] : [];
      });
      await carryReusedHelperMemory(environment.store, runId, reused, now);
      const offered = await takeEarlierResults(environment.store, runId, earlier, now);
      start.onRunCreated?.(run);
      const session = createSession(environment, { run, snapshot, tasks: [], resolveModel: start.resolveModel, onProgress: start.onProgress, onReplyStream: start.onReplyStream, onEarlyReply: start.onEarlyReply, earlierResults: offered, lore: start.lore });
      session.journal.carry(firstStep);
      firstStep.catch((error: unknown) => session.failFast(error instanceof RetinueError ? error : new HostContractError('store-failed', String(error), { cause: error })));
      for (const held of cadence.heldByLedger) session.journal.note('cadence-skip', { invocationId: rootId, data: { agentId: held.id, reason: 'held-by-ledger' } });
      if (profile) await startCadenceHelpers(session, root, cadence.atStart, 'turn-start');
      return drive(session, root, start.signal);
    },

    async resumeRun(runId, resume) {
      const store = environment.store;
      const run = await store.getRun(runId);
      if (!run) throw new HostContractError('run-missing', `There is no run ${runId} in the store to resume.`);
      if (run.status !== 'running') return { run, reply: run.status === 'completed' ? (run.reply ?? '') : '' };
      if (sessions.has(runId)) throw new HostContractError('run-active', `Run ${runId} is already running in this runtime.`);
      const snapshot = await storedSnapshot(runId);
      const root = await store.getInvocation(run.rootInvocationId);
      if (!root) throw new HostContractError('invocation-missing', `Run ${runId} has no root invocation in the store.`);
      // The earlier results this run was offered when it started, read by today's rule (a decision since may have changed one).
      const runFiles = new Set((await store.listFiles(runId, EARLIER_FOLDER)).map((file) => file.path));
      const earlierResults = run.chat ? (await findEarlierResults(store, run, run.chat, { resumed: true })).map((result) => asResumed(result, runFiles)) : [];
      const { session, invocations } = await sessionFromStore(run, snapshot, resume, earlierResults);
      const tasks = [...session.tasks.values()];
      await session.journal.record('run-resume', { invocationId: root.id, data: { tasks: tasks.length } });
      await completeEndRecords(session, invocations);
      // Tasks that were running go first, so they keep their slots; queued ones follow in order.
      const unfinished = tasks.filter((task) => task.status === 'running' || task.status === 'queued');
      unfinished.sort((left, right) => Number(right.status === 'running') - Number(left.status === 'running') || left.createdAt - right.createdAt);
      for (const task of unfinished) session.scheduler.enqueue(task.id, parentTaskOf(session, task)?.id);
      // A run taken up again between turns has no writer left to run: only its helpers (between-turns.ts).
      return drive(session, root, resume.signal, isReopenedRun(run, root) ? runBetweenTurns : runRoot);
    },

    cancelRun(runId, reason) {
      sessions.get(runId)?.session.controller.abort(reason === undefined ? cancelledFor(CANCEL_REASONS.runByUser) : new CancelledError(reason));
    },

    cancelTask(runId, taskId) {
      const active = sessions.get(runId);
      if (!active) return;
      cancelTask(active.session, taskId, CANCEL_REASONS.byUser).catch((error: unknown) =>
        active.session.failFast(error instanceof HostContractError ? error : new HostContractError('cancel-failed', String(error))),
      );
    },

    async reviewTask(runId, taskId, decision) {
      const active = sessions.get(runId);
      // A result that waits past its run's end is decided on its stored records, for the next turn.
      return active ? applyReviewDecision(active.session, taskId, decision) : applyEndedRunReview(environment.store, runId, taskId, decision, environment.now());
    },

    async sendGuidance(runId, request) {
      const active = sessions.get(runId);
      return active ? sendGuidance(active.session, request) : undefined;
    },

    async runAgent(runId, agentId) {
      const active = sessions.get(runId);
      return active ? runInActive(active.session, agentId) : undefined;
    },

    async runAgentBetweenTurns(runId, start) {
      const active = sessions.get(runId);
      if (active) return runInActive(active.session, start.agentId);
      // Two presses at once: the second waits for nothing, the first takes the run up.
      if (reopening.has(runId)) return { ok: false, code: 'run-agent-already', message: 'This turn is being taken up for a helper already; watch for its task in the side panel.' };
      reopening.add(runId);
      try {
        return await reopenBetweenTurns(runId, start);
      } finally {
        reopening.delete(runId);
      }
    },


    async shutdown() {
      const active = [...sessions.values()];
      for (const { session } of active) session.controller.abort(new RunSuspendedError());
      await Promise.allSettled(active.map(({ done }) => done));
    },
  };
}
