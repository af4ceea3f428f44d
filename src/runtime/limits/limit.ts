import type { ModelBehaviorError } from '../../errors';
import type { AgentInvocation } from '../../records/invocation';
import type { ReviewLapse } from '../../records/task-review';
import type { RunSession } from '../run-session';
import type { CancelReason } from '../cancel-reasons';

/** The limits there are (each one file in this folder, listed in all-limits.ts). */
export type LimitId = 'round-cap' | 'tool-call-cap' | 'spend-cap' | 'history-cap' | 'reply-deadline';

/** Where a limit is asked: the run, and the invocation as its record stands now. */
export interface LimitScope {
  session: RunSession;
  invocation: AgentInvocation;
}

/** A note a limit adds to the next tool result its invocation gets; recorded with that result. */
export interface LimitNote {
  text: string;
}

/** How a limit ends the waits of an invocation (`agent.await`), and what a lapsed review is put down to. */
export interface WaitEnding {
  signal: AbortSignal;
  lapse: ReviewLapse;
}

/**
 * One limit on a run or an invocation: the round cap, the tool-call cap, the spend cap, the reply
 * deadline. The loop, tool execution and delegation iterate `LIMITS` and name no limit; a limit's
 * state lives on the run or invocation record (so a resumed run has the same limits). Every
 * question is optional but `stopsLoop`.
 */
export interface Limit {
  readonly id: LimitId;
  /** Before a round: whether this limit ends the invocation's loop now (its wrap-up call follows). */
  stopsLoop(scope: LimitScope): boolean | Promise<boolean>;
  /** Said to the model just before the wrap-up instruction, when this limit ended the loop. */
  stopNote?(scope: LimitScope): string | undefined;
  /** A note for the next tool result (given once: the round it went out is kept on the invocation). */
  toolResultNote?(scope: LimitScope): LimitNote | undefined;
  /** The tool result a counted tool call gets instead of running, when this limit refuses it. */
  refusesToolCall?(scope: LimitScope, providerToolName: string): string | undefined;
  /** Why `agent.delegate` starts no new task now, when this limit refuses it. */
  refusesDelegation?(scope: LimitScope): ModelBehaviorError | undefined;
  /** Why a queued task may not start now (it is cancelled with these words), when this limit refuses it. */
  refusesTaskStart?(scope: LimitScope): CancelReason | undefined;
  /** A signal that ends the invocation's waits for its tasks. */
  endsWaits?(scope: LimitScope): WaitEnding | undefined;
}

/** Whether the invocation has met the limit `id` (recorded with the tool result that met it). */
export function hasMet(invocation: AgentInvocation, id: LimitId): boolean {
  return invocation.limits?.met?.includes(id) === true;
}

/** The round at which the limit's note went out, if it did. */
export function notedAtRound(invocation: AgentInvocation, id: LimitId): number | undefined {
  return invocation.limits?.notedAtRound?.[id];
}

/** The invocation with the limit `id` recorded as met. */
export function withMet(invocation: AgentInvocation, id: LimitId): AgentInvocation {
  if (hasMet(invocation, id)) return invocation;
  return { ...invocation, limits: { ...invocation.limits, met: [...(invocation.limits?.met ?? []), id] } };
}

/** The invocation with the limit's note recorded as given at its current round. */
export function withNoted(invocation: AgentInvocation, id: LimitId): AgentInvocation {
  const notedAtRound = { ...invocation.limits?.notedAtRound, [id]: invocation.usage.rounds };
  return { ...invocation, limits: { ...invocation.limits, notedAtRound } };
}
