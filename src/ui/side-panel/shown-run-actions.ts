import type { ReadonlySignal } from '@preact/signals';
import type { AgentRun } from '../../records/run';
import type { ReviewDecision } from '../../records/task-review';
import type { PanelConnection } from './panel-connection';

/** What the user asks of the run the panel shows, sent over the Port; nothing while no run is shown. */
export interface ShownRunActions {
  cancelRun(): void;
  cancelTask(taskId: string): void;
  /** Approve, edit or discard a result waiting for review. */
  reviewTask(taskId: string, decision: ReviewDecision): void;
  /** A note for the writer (no `taskId`) or a running task's next model request. */
  sendGuidance(taskId: string | undefined, text: string): void;
  /** The Run button: starts a helper in the shown run. */
  runAgent(agentId: string): void;
  /** Apply or discard a lore proposal of the shown run. */
  decideLore(proposalId: string, decision: 'apply' | 'discard'): void;
}

export function shownRunActions(connection: PanelConnection, run: ReadonlySignal<AgentRun | undefined>): ShownRunActions {
  const shown = (act: (runId: string) => void) => {
    if (run.value) act(run.value.id);
  };
  return {
    cancelRun: () => shown((runId) => connection.cancelRun(runId)),
    cancelTask: (taskId) => shown((runId) => connection.cancelTask(runId, taskId)),
    reviewTask: (taskId, decision) => shown((runId) => connection.reviewTask(runId, taskId, decision)),
    sendGuidance: (taskId, text) => shown((runId) => connection.sendGuidance(runId, taskId, text)),
    runAgent: (agentId) => shown((runId) => connection.runAgent(runId, agentId)),
    decideLore: (proposalId, decision) => shown((runId) => connection.decideLore?.(runId, proposalId, decision)),
  };
}
