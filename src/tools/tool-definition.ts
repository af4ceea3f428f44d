import type { z } from 'zod';
import type { SnapshotMessage } from '../hosts/prompt-snapshot';
import type { JournalEventDataInput } from '../records/journal';
import type { ResultCapsule } from '../records/capsule';
import type { AgentTaskRecord, TaskBrief } from '../records/task';
import type { TaskReview } from '../records/task-review';
import type { ToolName } from '../settings/tool-names';
import type { AgentProfile } from '../settings/schema';
import type { WorkspaceView } from '../workspace/workspace-view';
import type { LorePort } from './lore-books';

/** How a tool call ends its invocation's loop, when it does. */
export type InvocationEnding =
  /** The root's reply: a plain answer, a committed file, or its text at the cap. */
  | { kind: 'reply'; text: string }
  /** `workspace.finish`: the run ends with whatever reply was committed before (none: empty). */
  | { kind: 'finish' }
  /** A child handed its result over (written to the workspace already). */
  | { kind: 'task-returned'; capsule: ResultCapsule };

/**
 * Delegated tasks, by name, that a tool result tells its caller about: results handed over, and ends
 * announced. It is recorded in the same write as the tool result, so a restart neither loses nor
 * repeats it.
 */
export interface TaskHandover {
  delivered: readonly string[];
  announced: readonly string[];
}

/** Journal events a tool records about what it looked up (the side panel lists them per task). */
export type ToolLookupType = 'chat-searched' | 'chat-messages-read';
export type ToolLookup = { [T in ToolLookupType]: { type: T; data: JournalEventDataInput<T> } }[ToolLookupType];

export interface ToolOutcome {
  /** The tool result the model reads. */
  content: string;
  ending?: InvocationEnding;
  handover?: TaskHandover;
  /** What the call looked up, journaled with the call. */
  lookup?: ToolLookup;
}

/** A delegated task as its parent knows it: by its name (the workspace key), never by an id. */
export interface TaskView {
  name: string;
  agentId: string;
  title: string;
  status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  /** Present once the task ended with a result (a failed task has a failed capsule). */
  capsule?: ResultCapsule;
  /** Why it failed or was cancelled, in words for the parent. */
  problem?: string;
  /** The parent already read this result in an earlier `agent.await`. */
  alreadyDelivered: boolean;
  /** Present when the result is (or was) held for the user's review. */
  review?: TaskReview;
}

export interface DelegateRequest {
  agentId: string;
  task: TaskBrief;
  budget?: { maxRounds?: number; maxToolCalls?: number };
}

export interface DelegateAnswer {
  name: string;
  agent: AgentProfile;
  state: 'running' | 'queued';
  budget: { maxRounds: number; maxToolCalls: number };
  tasksLeft: number;
}

export interface AwaitRequest {
  tasks?: string[];
  mode: 'nextCompleted' | 'allCompleted' | 'statusOnly';
  /** Absent: long enough for the selected tasks' own timeouts (at least `defaults.awaitTimeoutMs`). */
  timeoutMs?: number;
}

export interface AwaitAnswer {
  /** Tasks whose result this answer hands over (marked delivered with the tool result). */
  finished: TaskView[];
  /** Selected tasks still queued or running, and ended ones handed over before. */
  others: TaskView[];
  timedOut: boolean;
  waitedMs: number;
  /** A limit ended the wait (the reply deadline); the limit's own note follows in the tool result. */
  endedByLimit?: boolean;
  /** Results from earlier turns the caller named, rendered (they belong to no task of this run). */
  earlierBlocks?: string[];
}

/** Delegation as one caller may use it; every name refers to a task this caller started. */
export interface DelegationPort {
  agents(): AgentProfile[];
  tasksLeft(): number;
  /** Idempotent per call: the same call (its turn and id) made again, as on resume, gives the same task. */
  delegate(request: DelegateRequest, call: ToolCallKey): Promise<DelegateAnswer>;
  await(request: AwaitRequest, signal: AbortSignal): Promise<AwaitAnswer>;
  cancel(names: readonly string[]): Promise<TaskView[]>;
  /**
   * A line about tasks that ended since the caller last heard of them (leaving out those `handover`
   * already covers), to append to its next tool result; undefined when there is nothing new.
   * Nothing is marked here: the names go into the hand-over stored with that tool result.
   */
  announcement(handover?: TaskHandover): { line: string; names: string[] } | undefined;
  /** The caller's task records with `handover` marked on them, to store with the tool result. */
  handedOver(handover: TaskHandover): AgentTaskRecord[];
}

/** What `task.return` hands over, before the runtime adds the task's own fields. */
export interface TaskResultInput {
  status: 'completed' | 'partial' | 'failed';
  summary: string;
  findings: string[];
  warnings: string[];
  suggestedNextActions: string[];
  questionsForCaller: string[];
  artifacts: { path: string; kind?: string; role?: string }[];
  confidence?: 'low' | 'medium' | 'high';
}

/** Writes a child's result capsule (`agent-results/…json` and its `result.md`). */
export interface TaskResultPort {
  submit(result: TaskResultInput): Promise<ResultCapsule>;
}

/**
 * Which call of which turn of the invocation a tool runs for. Providers may number calls per turn
 * (`call_0` in every turn), so the id alone does not name a call.
 */
export interface ToolCallKey {
  /** The invocation's round that made the call (its model-call count when the call was made). */
  turn: number;
  callId: string;
}

/** Everything a tool may touch, for one call of one invocation. */
export interface ToolContext {
  signal: AbortSignal;
  toolCallId: string;
  /** The invocation's round that made this call (see ToolCallKey). */
  turn: number;
  workspace: WorkspaceView;
  /** The host conversation, from the prompt snapshot. */
  chat: readonly SnapshotMessage[];
  /** For invocations that may delegate. */
  delegation?: DelegationPort;
  /** For return-mode children. */
  taskResult?: TaskResultPort;
  /** The page's lorebooks (SillyTavern), for the lore tools. */
  lore?: LorePort;
  /** True during the forced wrap-up call at the budget cap: a result given now is partial. */
  wrappingUp: boolean;
  /** The invocation's budget, for the wrap-up warning. */
  budget: { maxRounds: number; maxToolCalls: number };
}

/** One model-facing tool: canonical name, description for the caller, zod parameters, execute. */
export interface Tool {
  name: ToolName;
  description: string;
  parameters: z.ZodType;
  /**
   * It only reads (the workspace, the chat, the lorebooks, the agent list): a call made again
   * changes nothing, so a turn of such calls is stored once, with its results (tool-execution.ts).
   */
  readOnly?: true;
  execute(args: unknown, context: ToolContext): Promise<ToolOutcome>;
}

/**
 * Declares a tool with typed arguments; the dispatcher validates arguments with `parameters`
 * before `execute` sees them.
 */
export function defineTool<Parameters extends z.ZodType>(definition: {
  name: ToolName;
  description: string;
  parameters: Parameters;
  readOnly?: true;
  execute(args: z.output<Parameters>, context: ToolContext): Promise<ToolOutcome>;
}): Tool {
  return {
    name: definition.name,
    description: definition.description,
    parameters: definition.parameters,
    ...(definition.readOnly ? { readOnly: true as const } : {}),
    execute: (args, context) => definition.execute(args as z.output<Parameters>, context),
  };
}
