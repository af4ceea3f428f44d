import type { SidePanelState } from './side-panel-state';
import { AgentMemoryPanel, agentNameOf } from './agent-memory-panel';
import { t } from '../ui-text';
import { CostLine } from './cost-line';
import { MarkdownView } from './markdown-view';
import { RunExportButtons } from './run-actions';
import { RepliedNote } from './replied-note';
import { RunFallbackNote } from './run-fallback-note';
import { ReviewQueue } from './review-queue';
import { LoreProposals } from './lore-proposals';
import { RunTimeline } from './run-timeline';
import { rootProfileIdOf } from './run-timeline-model';
import { useMemo } from 'preact/hooks';
import { runDisplayStatus, StatusBadge } from './status-badge';
import { TaskList } from './task-list';
import { CadenceUsageLine } from './cadence-usage-line';
import { GuidancePanel } from './guidance-panel';
import { RunAgentButton } from './run-agent-button';
import { RunElapsed } from './task-clock';
import { recordErrorText } from './record-error-text';

/**
 * The current (or opened) run: root status, time, cancel, export, its tasks and its reply. It reads
 * the clock nowhere itself: the parts whose time runs take the clock signal, so a tick re-renders them only.
 */
export function RunView({ state }: { state: SidePanelState }) {
  const run = state.run.value;
  const settings = state.settings.value;
  const rootProfileId = rootProfileIdOf(state.journal.value);
  // The root by its name, as the task rows name it ("asked by the writer"), not by its profile id.
  const rootName = useMemo(() => agentNameOf(settings, rootProfileId), [settings, rootProfileId]);
  if (!run) return null;
  const pinned = state.pinnedRunId.value !== undefined;
  const report = (error: unknown) => (state.notice.value = t('sidepanel_action_failed', error instanceof Error ? error.message : String(error)));
  return (
    <section class="run-view" aria-labelledby="run-view-title">
      <div class="run-view-label">
        <span>{run.status === 'running' ? t('sidepanel_current_run') : t('sidepanel_latest_run')}</span>
        {pinned && (
          <button type="button" class="link-button" onClick={() => void state.followLatest()}>
            {t('sidepanel_back_to_latest')}
          </button>
        )}
      </div>
      <div class="run-head">
        <h2 id="run-view-title" class="run-title">{run.title || t('sidepanel_untitled')}</h2>
        <StatusBadge status={runDisplayStatus(run)} />
      </div>
      <div class="run-meta">
        <RunElapsed run={run} clock={state.now} format={(elapsed) => t('sidepanel_elapsed', elapsed)} />
        <span class="muted">{run.origin}</span>
      </div>
      <RepliedNote run={run} tasks={state.tasks.value} />
      <div class="button-row">
        {run.status === 'running' && (
          <button type="button" class="small-button danger" onClick={() => state.cancelRun()}>
            {t('sidepanel_cancel_run')}
          </button>
        )}
        <RunExportButtons store={state.store} runId={run.id} onError={report} />
        <RunAgentButton run={run} siteRuns={state.history.value} journal={state.journal.value} settings={state.settings.value} onRun={(agentId) => state.runAgent(agentId)} />
      </div>
      {run.fallback ? <RunFallbackNote fallback={run.fallback} /> : run.error && <p class="error-text">{t('sidepanel_run_error', recordErrorText(run.error))}</p>}
      <CostLine run={run} journal={state.journal.value} now={state.now} rootName={rootName} />
      <CadenceUsageLine tasks={state.tasks.value} />
      <RunTimeline run={run} tasks={state.tasks.value} journal={state.journal.value} now={state.now} rootName={rootName} />
      <ReviewQueue tasks={state.tasks.value} store={state.store} running={run.status === 'running'} onReview={(taskId, decision) => state.reviewTask(taskId, decision)} />
      <LoreProposals journal={state.journal.value} onDecide={(proposalId, decision) => state.decideLore(proposalId, decision)} />
      <TaskList tasks={state.tasks.value} store={state.store} now={state.now} onCancel={state.cancelTask} />
      <AgentMemoryPanel run={run} store={state.store} onError={report} agentName={(agentId) => agentNameOf(state.settings.value, agentId)} />
      <GuidancePanel run={run} tasks={state.tasks.value} onSend={(taskId, text) => state.sendGuidance(taskId, text)} />
      {run.reply && (
        <details class="run-reply">
          <summary>{t('sidepanel_reply')}</summary>
          <MarkdownView source={run.reply} />
        </details>
      )}
    </section>
  );
}
