import { ConfigurationError, HostContractError, type RetinueError } from '../errors';
import type { PromptSnapshot } from '../hosts/prompt-snapshot';
import { readStoredCapsule, type ResultCapsule } from '../records/capsule';
import type { AgentRun } from '../records/run';
import type { AgentTaskRecord } from '../records/task';
import { addUsage, type Usage } from '../records/usage';
import type { AgentProfile, SettingsDefaults } from '../settings/schema';
import type { RunStep, RunStore } from '../store/run-store';
import { RunWorkspace } from '../workspace/run-workspace';
import type { ModelResolver } from '../model/model-resolver';
import type { LoreReader } from '../tools/lore-books';
import type { EarlierResult } from './earlier-results';
import { ReplyDueClock } from './limits/reply-deadline';
import { createRootReplyStream, type ReplyStreamEvent, type RootReplyStream } from './reply-stream';
import { RunJournal } from './run-journal';
import { TaskScheduler, type TaskTimer } from './scheduler';
import { StagedCreations } from './staged-creations';

/** A reply that went to the page before the run's helpers were done. */
export interface EarlyReply {
  reply: string;
  /** The reply already went to `onReplyStream` in full. */
  replyStreamed: boolean;
  /** Helpers still queued or running. */
  stillWorking: number;
}

/** What every run of one runtime shares. */
export interface RuntimeEnvironment {
  store: RunStore;
  profiles: ReadonlyMap<string, AgentProfile>;
  defaults: SettingsDefaults;
  now: () => number;
  newId: () => string;
  /** How long noted journal events wait for a step to carry them; `JOURNAL_IDLE_MS` when absent. */
  journalIdleMs?: number;
}

export interface RunSessionOptions {
  environment: RuntimeEnvironment;
  run: AgentRun;
  snapshot: PromptSnapshot;
  tasks: readonly AgentTaskRecord[];
  resolveModel: ModelResolver;
  onProgress?: (line: string) => void;
  /** The root's reply as the model writes it (see reply-stream.ts); absent when nobody listens. */
  onReplyStream?: (event: ReplyStreamEvent) => void;
  /** The reply, sent while helpers still work (only with a reply deadline); the run ends later. */
  onEarlyReply?: (reply: EarlyReply) => void;
  /** Results of earlier runs of the conversation, offered to the root by name. */
  earlierResults?: readonly EarlierResult[];
  /** The page's lorebooks (SillyTavern), for the lore tools. */
  lore?: LoreReader;
  /** Runs one child task to its end (records included); the scheduler calls it when a slot is free. */
  runChildTask: (session: RunSession, taskId: string, signal: AbortSignal, timer: TaskTimer) => Promise<void>;
}

/**
 * One live run in this runtime: its record, snapshot, tasks, journal, scheduler and the root of
 * its AbortSignal tree. Records changed here are written through to the store.
 */
export class RunSession {
  readonly environment: RuntimeEnvironment;
  readonly store: RunStore;
  readonly workspace: RunWorkspace;
  readonly journal: RunJournal;
  readonly controller = new AbortController();
  readonly scheduler: TaskScheduler;
  readonly snapshot: PromptSnapshot;
  readonly resolveModel: ModelResolver;
  readonly tasks = new Map<string, AgentTaskRecord>();
  /** Tasks created by delegate calls and not stored yet (they are, with the caller's next tool result). */
  readonly creations = new StagedCreations();
  /** The reply deadline's clock, from the run record's `replyDueAt` (limits/reply-deadline.ts). */
  readonly replyDue: ReplyDueClock;
  readonly onEarlyReply: ((reply: EarlyReply) => void) | undefined;
  readonly earlierResults: readonly EarlierResult[];
  readonly lore: LoreReader | undefined;
  private readonly capsules = new Map<string, ResultCapsule>();
  /** Tasks changed in memory that the next step stores (`carryTask`). */
  private readonly tasksToCarry = new Set<string>();
  private readonly progress: ((line: string) => void) | undefined;
  private readonly replyListener: ((event: ReplyStreamEvent) => void) | undefined;
  /** The run record; every limit's run-wide state is on it (`replyDueAt`, `tokenCap`, ...). */
  run: AgentRun;

  constructor(options: RunSessionOptions) {
    this.environment = options.environment;
    this.store = options.environment.store;
    this.run = options.run;
    this.snapshot = options.snapshot;
    this.resolveModel = options.resolveModel;
    this.progress = options.onProgress;
    this.replyListener = options.onReplyStream;
    this.replyDue = new ReplyDueClock(options.run.replyDueAt);
    this.onEarlyReply = options.onEarlyReply;
    this.earlierResults = options.earlierResults ?? [];
    this.lore = options.lore;
    this.workspace = new RunWorkspace({ store: this.store, runId: options.run.id, now: options.environment.now });
    this.journal = new RunJournal({
      store: this.store,
      runId: options.run.id,
      now: options.environment.now,
      onFailure: (error) => this.failFast(error),
      ...(options.environment.journalIdleMs !== undefined ? { idleMs: options.environment.journalIdleMs } : {}),
    });
    for (const task of options.tasks) this.tasks.set(task.id, task);
    this.scheduler = new TaskScheduler({
      maxRunning: options.environment.defaults.maxRunningChildren,
      parentSignal: this.controller.signal,
      runTask: (taskId, signal, timer) => options.runChildTask(this, taskId, signal, timer),
    });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  now(): number {
    return this.environment.now();
  }

  /** A profile by id; a missing one is a settings problem the user must fix. */
  profile(profileId: string): AgentProfile {
    const profile = this.environment.profiles.get(profileId);
    if (!profile) {
      throw new ConfigurationError('profile-missing', `There is no agent profile "${profileId}". Add it in the options, or pick another profile.`);
    }
    return profile;
  }

  /** Saves a task record (memory and store). */
  async saveTask(task: AgentTaskRecord): Promise<void> {
    this.tasks.set(task.id, task);
    this.tasksToCarry.delete(task.id);
    await this.store.putTask(task);
  }

  /**
   * Changes a task record in memory for the run's next step to store, when nothing waits on it
   * being stored (what a task's calls ran with): a write of its own would queue beside the steps.
   */
  carryTask(task: AgentTaskRecord): void {
    this.tasks.set(task.id, task);
    this.tasksToCarry.add(task.id);
  }

  /**
   * Writes one step of this run in one transaction, with the journal events noted since the last
   * write (a round's events ride with its history append instead of costing writes of their own)
   * and the task records carried since. The records in memory are the caller's to update.
   */
  async saveStep(step: RunStep): Promise<void> {
    const journal = this.journal.take();
    const write = this.store.saveStep({ ...step, ...this.withCarriedTasks(step.tasks), ...(journal.length > 0 ? { journal: [...journal, ...(step.journal ?? [])] } : {}) });
    this.journal.carry(write);
    await write;
  }

  /** The step's tasks and, after them, those carried since the last step (as they stand now). */
  private withCarriedTasks(tasks: RunStep['tasks']): Pick<RunStep, 'tasks'> {
    if (this.tasksToCarry.size === 0) return tasks ? { tasks } : {};
    const named = new Set((tasks ?? []).map((task) => task.id));
    const carried = [...this.tasksToCarry].filter((id) => !named.has(id)).flatMap((id) => this.tasks.get(id) ?? []);
    this.tasksToCarry.clear();
    return { tasks: [...(tasks ?? []), ...carried] };
  }

  /**
   * Takes in hand-over marks just stored with a tool result. Only those marks are merged: the
   * records in memory may have moved on meanwhile (a task's deadline), and they win elsewhere.
   */
  rememberHandover(stored: readonly AgentTaskRecord[]): void {
    for (const record of stored) {
      const current = this.tasks.get(record.id) ?? record;
      this.tasks.set(record.id, { ...current, resultDeliveredAt: record.resultDeliveredAt, announcedAt: record.announcedAt });
    }
  }

  /** Tasks a given invocation started, in creation order. */
  tasksOf(parentInvocationId: string): AgentTaskRecord[] {
    return [...this.tasks.values()]
      .filter((task) => task.parentInvocationId === parentInvocationId)
      .sort((left, right) => left.createdAt - right.createdAt);
  }

  rememberCapsule(taskId: string, capsule: ResultCapsule): void {
    this.capsules.set(taskId, capsule);
  }

  /** A finished task's capsule, from memory or from `agent-results/` in the store. */
  async capsuleOf(task: AgentTaskRecord): Promise<ResultCapsule | undefined> {
    const known = this.capsules.get(task.id);
    if (known || !task.resultRef) return known;
    const text = await this.workspace.readText(task.resultRef);
    if (text === undefined) return undefined;
    const reading = readStoredCapsule(text);
    if (!reading.ok && reading.problem === 'not-json') throw new HostContractError('capsule-unreadable', `The stored result ${task.resultRef} is not valid JSON.`);
    if (!reading.ok) throw new HostContractError('capsule-invalid', `The stored result ${task.resultRef} does not match its schema.`);
    this.capsules.set(task.id, reading.capsule);
    return reading.capsule;
  }

  /** Adds a model call's usage to the run's total (saved with the run record). */
  addUsage(usage: Partial<Usage>): void {
    this.run = { ...this.run, usage: addUsage(this.run.usage, usage) };
  }

  /** A short progress line for the page, e.g. `scene-critic · Critique — started`. */
  reportProgress(line: string): void {
    try {
      this.progress?.(line);
    } catch {
      // A progress listener that throws must not break the run; the journal still has every step.
    }
  }

  /** A stream for the root's reply, or undefined when nobody listens for one. */
  createReplyStream(rootInvocationId: string): RootReplyStream | undefined {
    const listener = this.replyListener;
    if (!listener) return undefined;
    const send = (event: ReplyStreamEvent) => {
      try {
        listener(event);
      } catch {
        // A listener that throws must not break the run; the reply still goes out at the end.
      }
    };
    return createRootReplyStream(send, () => {
      const started = this.tasksOf(rootInvocationId);
      return started.length > 0 && started.every((task) => task.status !== 'queued' && task.status !== 'running');
    });
  }

  /** Ends the whole run now because a contract broke (storage, journal): fail fast. */
  failFast(error: RetinueError): void {
    if (!this.controller.signal.aborted) this.controller.abort(error);
  }
}
