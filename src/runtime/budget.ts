import type { Budget } from '../records/budget';
import type { Usage } from '../records/usage';
import type { AgentProfile } from '../settings/schema';

/** What the loop knows when it decides whether to make another round. */
export interface LoopState {
  budget: Budget;
  usage: Usage;
  /** A call of the last turn was refused because the tool-call budget was spent. */
  toolBudgetRefused: boolean;
  /** The run's spend cap stops this invocation (see spend-cap.ts). */
  runTokenCapReached?: boolean;
  signal: AbortSignal;
}

/** One stop condition: a name for journals and a predicate over the loop state. */
export interface StopCondition {
  reason: 'cancelled' | 'round-cap' | 'tool-call-cap' | 'run-token-cap';
  isMet(state: LoopState): boolean;
}

export const cancelled: StopCondition = { reason: 'cancelled', isMet: (state) => state.signal.aborted };
/** The forced wrap-up is one extra call after the loop, so rounds count up to `maxRounds` first. */
export const roundCapReached: StopCondition = { reason: 'round-cap', isMet: (state) => state.usage.rounds >= state.budget.maxRounds };
export const toolCallCapExceeded: StopCondition = { reason: 'tool-call-cap', isMet: (state) => state.toolBudgetRefused };
export const runTokenCapReached: StopCondition = { reason: 'run-token-cap', isMet: (state) => state.runTokenCapReached === true };

/** Every stop condition, checked in this one place before each round; the first met wins. */
export const STOP_CONDITIONS: readonly StopCondition[] = [cancelled, roundCapReached, toolCallCapExceeded, runTokenCapReached];

export function firstMetStopCondition(state: LoopState): StopCondition | undefined {
  return STOP_CONDITIONS.find((condition) => condition.isMet(state));
}

/** Whether one more (non-`task.return`) tool call fits the budget. */
export function toolCallFits(budget: Budget, toolCallsSoFar: number): boolean {
  return toolCallsSoFar < budget.maxToolCalls;
}

/** A profile's budget as a record budget. */
export function profileBudget(profile: AgentProfile): Budget {
  const { maxRounds, maxToolCalls, timeoutMs } = profile.budget;
  return timeoutMs === undefined ? { maxRounds, maxToolCalls } : { maxRounds, maxToolCalls, timeoutMs };
}

/**
 * The budget of a delegated task: the caller may only narrow the target profile's budget, never
 * widen it; the timeout always comes from the profile.
 */
export function narrowBudget(profile: AgentProfile, requested?: { maxRounds?: number; maxToolCalls?: number }): Budget {
  const base = profileBudget(profile);
  return {
    ...base,
    maxRounds: Math.max(1, Math.min(base.maxRounds, requested?.maxRounds ?? base.maxRounds)),
    maxToolCalls: Math.max(0, Math.min(base.maxToolCalls, requested?.maxToolCalls ?? base.maxToolCalls)),
  };
}
