import type { JournalEvent } from '../../records/journal';
import type { AgentRun } from '../../records/run';

/** What one model (by its label) cost in a run. */
export interface ModelCost {
  model: string;
  /** Set for the page's own model: the model the page names ('' when none). */
  pageModel?: string;
  calls: number;
  tokensIn: number;
  tokensOut: number;
  /** Calls whose counts are Retinue's estimate. */
  estimatedCalls: number;
  /** Calls that reported no usage and have no estimate. */
  unreportedCalls: number;
  /** Time spent in this model's calls, summed (calls in parallel each count). */
  callMilliseconds: number;
}

export interface RunCost {
  byModel: ModelCost[];
  calls: number;
  tokensIn: number;
  tokensOut: number;
  estimatedCalls: number;
  unreportedCalls: number;
  /** The run's wall time: start to end, or to now while it runs. */
  wallMilliseconds: number;
}

/** One model call of one invocation: its start and end events share it. */
export const modelCallKey = (event: JournalEvent, round: number | undefined) => `${event.invocationId ?? ''}#${round ?? ''}`;
const UNKNOWN_MODEL = '?';

/**
 * The cost line of a run, from its journal: every finished model call (`model-call-end` with usage),
 * grouped by the model its `model-call-start` named, in the order the models were first used. Events
 * come parsed by their schemas (`records/journal-events.ts`); counts a provider left out read as 0.
 */
export function summariseRunCost(run: AgentRun, journal: readonly JournalEvent[], now: number): RunCost {
  const started = new Map<string, { model: string; pageModel: string | undefined; time: number }>();
  const byModel = new Map<string, ModelCost>();
  for (const event of journal) {
    if (event.type === 'model-call-start') {
      started.set(modelCallKey(event, event.data.round), { model: event.data.model ?? UNKNOWN_MODEL, pageModel: event.data.pageModel, time: event.time });
      continue;
    }
    if (event.type !== 'model-call-end') continue;
    const usage = event.data.usage;
    // A call that failed has no usage: it is not a billed call here.
    if (!usage) continue;
    const start = started.get(modelCallKey(event, event.data.round));
    // The end names the model when another one answered than the start named (a keyed budget spent).
    const named = event.data.model !== undefined ? { model: event.data.model, pageModel: event.data.pageModel } : start;
    const model = named?.model ?? UNKNOWN_MODEL;
    const pageModel = named?.pageModel !== undefined ? { pageModel: named.pageModel } : {};
    const cost = byModel.get(model) ?? { model, ...pageModel, calls: 0, tokensIn: 0, tokensOut: 0, estimatedCalls: 0, unreportedCalls: 0, callMilliseconds: 0 };
    cost.calls += 1;
    cost.tokensIn += usage.promptTokens;
    cost.tokensOut += usage.completionTokens;
    if (usage.estimated === true) cost.estimatedCalls += 1;
    else if (usage.promptTokens + usage.completionTokens === 0) cost.unreportedCalls += 1;
    if (start) cost.callMilliseconds += Math.max(0, event.time - start.time);
    byModel.set(model, cost);
  }
  const models = [...byModel.values()];
  const sum = (pick: (cost: ModelCost) => number) => models.reduce((total, cost) => total + pick(cost), 0);
  return {
    byModel: models,
    calls: sum((cost) => cost.calls),
    tokensIn: sum((cost) => cost.tokensIn),
    tokensOut: sum((cost) => cost.tokensOut),
    estimatedCalls: sum((cost) => cost.estimatedCalls),
    unreportedCalls: sum((cost) => cost.unreportedCalls),
    wallMilliseconds: Math.max(0, (run.endedAt ?? now) - run.createdAt),
  };
}
