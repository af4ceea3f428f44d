import { useEffect, useState } from 'preact/hooks';
import type { AgentTaskRecord } from '../../records/task';
import type { RunStore } from '../../store/run-store';
import { t } from '../ui-text';
import { ArtifactItem } from './artifact-item';
import { MarkdownView } from './markdown-view';
import { loadTaskResult, type TaskResult } from './task-result-loader';
import { recordErrorText } from './record-error-text';

/**
 * Whether the result is only what Retinue told the writer about a task that failed (in English, for
 * the model): the error line above says it in the panel's language, so it is folded away.
 */
function toldWriterOnly(task: AgentTaskRecord, result: TaskResult): boolean {
  return task.error !== undefined && result.capsule?.status === 'failed';
}

/** The details of one task: its error, its rendered result capsule and its workspace files. */
export function TaskResultView({ store, task }: { store: RunStore; task: AgentTaskRecord }) {
  const [result, setResult] = useState<TaskResult | undefined>(undefined);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  useEffect(() => {
    let current = true;
    loadTaskResult(store, task).then(
      (loaded) => current && setResult(loaded),
      (error: unknown) => current && setFailure(error instanceof Error ? error.message : String(error)),
    );
    return () => {
      current = false;
    };
    // Re-read when the task moves on, not on every usage tick.
  }, [store, task.id, task.status, task.resultRef, task.endedAt, task.review?.state]);

  return (
    <div class="task-result">
      {task.error && <p class="error-text">{t('sidepanel_task_error', recordErrorText(task.error))}</p>}
      {failure && <p class="error-text">{t('sidepanel_action_failed', failure)}</p>}
      {!result && !failure && <p class="muted">{t('sidepanel_result_loading')}</p>}
      {result && !toldWriterOnly(task, result) && (result.markdown ? <MarkdownView source={result.markdown} /> : <p class="muted">{t('sidepanel_result_missing')}</p>)}
      {result?.markdown && toldWriterOnly(task, result) && (
        <details class="told-writer">
          <summary>{t('sidepanel_failed_result_told')}</summary>
          <MarkdownView source={result.markdown} />
        </details>
      )}
      {result && result.reasoning.length > 0 && (
        <details class="task-reasoning">
          <summary>{t('sidepanel_reasoning')}</summary>
          {result.reasoning.map((text, index) => (
            <pre key={index}>{text}</pre>
          ))}
        </details>
      )}
      {result && (
        <section class="artifacts" aria-label={t('sidepanel_artifacts')}>
          <h4>{t('sidepanel_artifacts')}</h4>
          {result.artifacts.length === 0 ? (
            <p class="muted">{t('sidepanel_no_artifacts')}</p>
          ) : (
            <ul class="artifact-list">
              {result.artifacts.map((artifact) => (
                <ArtifactItem key={artifact.file.path} file={artifact.file} displayPath={artifact.displayPath} />
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}
