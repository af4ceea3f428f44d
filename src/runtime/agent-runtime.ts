import type { PromptSnapshot } from '../hosts/prompt-snapshot';
import type { ModelResolver } from '../model/model-resolver';
import type { PageChatIdentity } from '../records/chat-identity';
import type { AgentRun } from '../records/run';
import type { ReviewDecision } from '../records/task-review';
import type { GuidanceOutcome } from '../records/guidance-note';
import type { ReviewOutcome } from './task-review';
import type { ReplyStreamEvent } from './reply-stream';
import type { EarlyReply } from './run-session';
import type { AgentProfile, SettingsDefaults } from '../settings/schema';
import type { RunStore } from '../store/run-store';
import type { LoreReader } from '../tools/lore-books';

export type { ModelResolver };

export interface AgentRuntimeOptions {
  store: RunStore;
  /** Built-ins merged with the settings document's profiles. */
  profiles: AgentProfile[];
  defaults: SettingsDefaults;
  /**
   * Ids of the connections that carry an API key: a run whose agents may use one gets a spend cap by
   * default (`DEFAULT_KEYED_RUN_TOKENS`) when no `maxRunTokens` is set. Absent: none.
   */
  keyedConnectionIds?: readonly string[];
  /** The cap on each run's stored history in bytes (`RUN_HISTORY_CAP_BYTES` by default; tests lower it). */
  historyCapBytes?: number;
  now?: () => number;
  newId?: () => string;
  /** How long noted journal events wait for a step to carry them (run-journal.ts); tests lengthen it to count writes. */
  journalIdleMs?: number;
}

export interface StartRunOptions {
  /** The page's origin (or `runner:` for the headless runner). */
  origin: string;
  /** The host adapter that read the request. */
  adapter: string;
  snapshot: PromptSnapshot;
  /** Defaults to `defaults.rootProfileId`. */
  rootProfileId?: string;
  resolveModel: ModelResolver;
  /** Aborting cancels the run and all its children (the page's Stop button). */
  signal?: AbortSignal;
  /** Short progress lines for the page, e.g. `scene-critic · Critique — started`. */
  onProgress?: (line: string) => void;
  /** The root's reply as the model writes it, for a page that streams; see {@link ReplyStreamEvent}. */
  onReplyStream?: (event: ReplyStreamEvent) => void;
  /**
   * Milliseconds from the run's start until the root must reply (absent or 0: no deadline, it waits
   * for its helpers). With a deadline, helpers still working when the root replies keep running:
   * the reply goes to `onEarlyReply` and the run ends (and `startRun` resolves) once they are done.
   */
  replyDeadlineMs?: number;
  /** The conversation and message, as the page (or the runner) names them; absent: hashed from the chat. */
  chat?: PageChatIdentity;
  onEarlyReply?: (reply: EarlyReply) => void;
  /** Told once the run is stored, before the root's first turn (the page bridge needs the id to reconnect). */
  onRunCreated?: (run: AgentRun) => void;
  /** The page's lorebooks (SillyTavern), for the lore tools. */
  lore?: LoreReader;
}

export interface ResumeRunOptions {
  resolveModel: ModelResolver;
  signal?: AbortSignal;
  onProgress?: (line: string) => void;
  onReplyStream?: (event: ReplyStreamEvent) => void;
  /** As for `startRun`: a run started with a reply deadline keeps it when resumed (`replyDueAt`). */
  onEarlyReply?: (reply: EarlyReply) => void;
  lore?: LoreReader;
}

export type { EarlyReply };

/** What a helper run between turns needs: which helper, and the page's model and lorebooks as for a resumed run. */
export interface BetweenTurnsOptions extends ResumeRunOptions {
  agentId: string;
}

/** Started (`done` when the run ended again, absent for a run already working), or refused with what to do. */
export type BetweenTurnsStart = { ok: true; done?: Promise<RunOutcome> } | { ok: false; code: string; message: string };

export interface RunOutcome {
  /** The run as stored at its end: `completed`, `failed`, `cancelled` (with `error` set unless completed). */
  run: AgentRun;
  /** The reply for the page; empty unless completed. */
  reply: string;
  /** The reply already went to `onReplyStream` in full, as the model wrote it. */
  replyStreamed?: boolean;
  /**
   * True when this runtime was shut down mid-run: nothing was recorded as an end, the run is still
   * `running` in the store, and `resumeRun` (on a new runtime) continues it.
   */
  suspended?: boolean;
}

/** The agent runtime: one run per chat turn, its root and its delegated children. */
export interface AgentRuntime {
  /** Runs a whole agent run. Never rejects for model or tool failures: they end the run as `failed`. */
  startRun(options: StartRunOptions): Promise<RunOutcome>;
  /** Continues a run that stopped between two rounds, from the store alone. */
  resumeRun(runId: string, options: ResumeRunOptions): Promise<RunOutcome>;
  cancelRun(runId: string, reason?: string): void;
  cancelTask(runId: string, taskId: string): void;
  /** The user's decision on a result waiting for review; undefined when this runtime does not drive the run. */
  reviewTask(runId: string, taskId: string, decision: ReviewDecision): Promise<ReviewOutcome | undefined>;
  /**
   * A note from the side panel for the root (`taskId` absent) or a running task: it goes into that
   * invocation's next model request. Undefined when this runtime does not drive the run.
   */
  sendGuidance(runId: string, request: { taskId?: string; text: string }): Promise<GuidanceOutcome | undefined>;
  /** The side panel's Run button: starts a helper in this run. Undefined when this runtime does not drive the run. */
  runAgent(runId: string, agentId: string): Promise<{ ok: true } | { ok: false; code: string; message: string } | undefined>;
  /**
   * The Run button between turns (between-turns.ts): runs the helper on the ended run `runId`, the
   * conversation's latest, taken up again; `done` resolves when that run ends again. A run working
   * in this runtime takes the helper as `runAgent` does. Refused with what to do otherwise.
   */
  runAgentBetweenTurns(runId: string, start: BetweenTurnsOptions): Promise<BetweenTurnsStart>;
  /**
   * Stops every run of this runtime where it stands without recording an end, as when the browser
   * stops the service worker; their `startRun`/`resumeRun` promises resolve with `suspended: true`.
   */
  shutdown(): Promise<void>;
}
