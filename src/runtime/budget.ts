/** Budgets of invocations; the caps themselves are limits (src/runtime/limits/). */
import type { Budget } from '../records/budget';
import type { AgentProfile } from '../settings/schema';

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
