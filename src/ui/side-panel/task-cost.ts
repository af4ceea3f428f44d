import type { JournalEvent } from '../../records/journal';
import { modelCallKey as callKey, type ModelCost } from './run-cost';

/** What one task (or the root: `taskName` undefined) spent on one model: a model's cost without the time. */
export interface TaskCost extends Omit<ModelCost, 'callMilliseconds'> {
  /** The task's name (`scene-critic`), or undefined for the root. */
  taskName: string | undefined;
}

/**
 * Tokens per task and model, from the run's journal: the root first, then each task in the order
 * its first call finished. A failed call (no usage) is not counted.
 */
export function summariseTaskCost(journal: readonly JournalEvent[]): TaskCost[] {
  const names = new Map<string, string>();
  const models = new Map<string, { model: string; pageModel?: string }>();
  const costs = new Map<string, TaskCost>();
  for (const event of journal) {
    if (event.type === 'task-start') {
      if (event.taskId && event.data.workspaceKey) names.set(event.taskId, event.data.workspaceKey);
    } else if (event.type === 'model-call-start') {
      const pageModel = event.data.pageModel;
      models.set(callKey(event, event.data.round), { model: event.data.model ?? '?', ...(pageModel !== undefined ? { pageModel } : {}) });
    } else if (event.type === 'model-call-end') {
      const usage = event.data.usage;
      if (!usage) continue;
      const { model: answeredBy, pageModel } = event.data;
      // The end names the model when another one answered than the start named (a keyed budget spent).
      const named = answeredBy !== undefined ? { model: answeredBy, ...(pageModel !== undefined ? { pageModel } : {}) } : (models.get(callKey(event, event.data.round)) ?? { model: '?' });
      const key = `${event.taskId ?? ''}|${named.model}`;
      const cost = costs.get(key) ?? { taskName: event.taskId, ...named, calls: 0, tokensIn: 0, tokensOut: 0, estimatedCalls: 0, unreportedCalls: 0 };
      cost.calls += 1;
      cost.tokensIn += usage.promptTokens;
      cost.tokensOut += usage.completionTokens;
      if (usage.estimated === true) cost.estimatedCalls += 1;
      else if (usage.promptTokens + usage.completionTokens === 0) cost.unreportedCalls += 1;
      costs.set(key, cost);
    }
  }
  const all = [...costs.values()].map((cost) => ({ ...cost, taskName: cost.taskName === undefined ? undefined : (names.get(cost.taskName) ?? cost.taskName) }));
  return [...all.filter((cost) => cost.taskName === undefined), ...all.filter((cost) => cost.taskName !== undefined)];
}

/** The run's spend cap, once the journal says it was reached. */
export function tokenCapReached(journal: readonly JournalEvent[]): { cap: number; totalTokens: number } | undefined {
  for (const event of journal) {
    if (event.type !== 'token-cap-reached') continue;
    const { cap, totalTokens } = event.data;
    return cap !== undefined && totalTokens !== undefined ? { cap, totalTokens } : undefined;
  }
  return undefined;
}
