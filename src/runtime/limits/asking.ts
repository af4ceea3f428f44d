import type { ModelBehaviorError } from '../../errors';
import type { AgentInvocation } from '../../records/invocation';
import { LIMITS } from './all-limits';
import { withMet, withNoted, type Limit, type LimitScope, type WaitEnding } from './limit';
import type { CancelReason } from '../cancel-reasons';

/** The first limit that ends the invocation's loop now, if any (asked in `LIMITS` order). */
export async function limitEndingLoop(scope: LimitScope): Promise<Limit | undefined> {
  for (const limit of LIMITS) if (await limit.stopsLoop(scope)) return limit;
  return undefined;
}

/** The first limit that refuses a counted tool call now, with the result the call gets instead. */
export function toolCallRefusal(scope: LimitScope, providerToolName: string): { limit: Limit; text: string } | undefined {
  for (const limit of LIMITS) {
    const text = limit.refusesToolCall?.(scope, providerToolName);
    if (text !== undefined) return { limit, text };
  }
  return undefined;
}

/**
 * The notes the limits add to the next tool result, and the invocation with each recorded as given
 * (store it with that result, so a note is given once, restarts included).
 */
export function toolResultNotes(scope: LimitScope): { notes: string[]; invocation: AgentInvocation } {
  let invocation = scope.invocation;
  const notes: string[] = [];
  for (const limit of LIMITS) {
    const note = limit.toolResultNote?.(scope);
    if (!note) continue;
    notes.push(note.text);
    invocation = withNoted(invocation, limit.id);
  }
  return { notes, invocation };
}

/** The invocation with `limit` recorded as met (it refused one of its calls). */
export function recordMet(invocation: AgentInvocation, limit: Limit): AgentInvocation {
  return withMet(invocation, limit.id);
}

/** Why `agent.delegate` starts no new task now, if a limit refuses it. */
export function delegationRefusal(scope: LimitScope): ModelBehaviorError | undefined {
  for (const limit of LIMITS) {
    const refusal = limit.refusesDelegation?.(scope);
    if (refusal) return refusal;
  }
  return undefined;
}

/** Why a queued task may not start now (scope: its own invocation), if a limit refuses it. */
export function taskStartRefusal(scope: LimitScope): CancelReason | undefined {
  for (const limit of LIMITS) {
    const refusal = limit.refusesTaskStart?.(scope);
    if (refusal !== undefined) return refusal;
  }
  return undefined;
}

/** The limits that end this invocation's waits for its tasks. */
export function waitEndings(scope: LimitScope): WaitEnding[] {
  return LIMITS.flatMap((limit) => limit.endsWaits?.(scope) ?? []);
}
