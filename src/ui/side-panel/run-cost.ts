import { z } from 'zod';
import type { JournalEvent } from '../../records/journal';
import type { AgentRun } from '../../records/run';

/**
 * A model call's usage as the journal's `model-call-end` carries it. `estimated: true` marks counts
 * that Retinue estimated because the provider gave none; a call with no counts at all (or zero)
 * reported no usage.
 */
export const journalUsageSchema = z.looseObject({
  promptTokens: z.number().nonnegative().default(0),
  completionTokens: z.number().nonnegative().default(0),
  estimated: z.boolean().optional(),
});

export const modelCallStartSchema = z.looseObject({ round: z.number().optional(), model: z.string().optional() });
export const modelCallEndSchema = z.looseObject({ round: z.number().optional(), usage: journalUsageSchema.optional() });

/** What one model (by its label) cost in a run. */
export interface ModelCost {
  model: string;
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

const callKey = (event: JournalEvent, round: number | undefined) => `${event.invocationId ?? ''}#${round ?? ''}`;
const UNKNOWN_MODEL = '?';

/**
 * The cost line of a run, from its journal: every finished model call (`model-call-end` with usage),
 * grouped by the model its `model-call-start` named, in the order the models were first used.
 */
export function summariseRunCost(run: AgentRun, journal: readonly JournalEvent[], now: number): RunCost {
  const started = new Map<string, { model: string; time: number }>();
  const byModel = new Map<string, ModelCost>();
  for (const event of journal) {
    if (event.type === 'model-call-start') {
      const data = modelCallStartSchema.safeParse(event.data);
      started.set(callKey(event, data.data?.round), { model: data.data?.model ?? UNKNOWN_MODEL, time: event.time });
      continue;
    }
    if (event.type !== 'model-call-end') continue;
    const data = modelCallEndSchema.safeParse(event.data);
    // A call that failed has no usage: it is not a billed call here.
    if (!data.success || !data.data.usage) continue;
    const start = started.get(callKey(event, data.data.round));
    const model = start?.model ?? UNKNOWN_MODEL;
    const cost = byModel.get(model) ?? { model, calls: 0, tokensIn: 0, tokensOut: 0, estimatedCalls: 0, unreportedCalls: 0, callMilliseconds: 0 };
    const usage = data.data.usage;
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
