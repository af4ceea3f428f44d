import { useEffect, useRef, useState } from 'preact/hooks';
import type { AgentTaskRecord } from '../../records/task';
import { awaitsReview, REVIEW_EDIT_MAX_CHARS, type ReviewDecision, type TaskReview } from '../../records/task-review';
import { renderCapsuleBody } from '../../rendering/capsule-markdown';
import type { RunStore } from '../../store/run-store';
import { t, type UiMessageKey } from '../ui-text';
import { MarkdownView } from './markdown-view';
import { loadTaskResult, type TaskResult } from './task-result-loader';

export interface ReviewQueueProps {
  tasks: AgentTaskRecord[];
  store: RunStore;
  /** A run still working reads a decision now; after its end, a decision applies to the next turn. */
  running: boolean;
  onReview(taskId: string, decision: ReviewDecision): void;
}

/**
 * Results held for the user's look (profile `review: "ask"`), each with Approve, Edit and Discard;
 * the writer gets a result only once the user decided (or the wait ran out). A result still waiting
 * when its run ended (it came after the reply) stays decidable, for the conversation's next turn.
 */
export function ReviewQueue({ tasks, store, running, onReview }: ReviewQueueProps) {
  const waiting = tasks.filter(awaitsReview);
  if (waiting.length === 0) return null;
  return (
    <section class="review-queue" aria-labelledby="review-queue-title">
      <h3 id="review-queue-title">{t('sidepanel_review_heading', waiting.length)}</h3>
      <p class="muted">{t(running ? 'sidepanel_review_intro' : 'sidepanel_review_intro_next_turn')}</p>
      <ul>
        {waiting.map((task) => (
          <ReviewCard key={task.id} task={task} store={store} onReview={onReview} />
        ))}
      </ul>
    </section>
  );
}

function ReviewCard({ task, store, onReview }: { task: AgentTaskRecord; store: RunStore; onReview: ReviewQueueProps['onReview'] }) {
  const [result, setResult] = useState<TaskResult | undefined>(undefined);
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const editor = useRef<HTMLTextAreaElement>(null);
  const fieldId = `review-edit-${task.id}`;
  const name = `${task.workspaceKey} · ${task.task.title}`;

  useEffect(() => {
    let current = true;
    loadTaskResult(store, task).then(
      (loaded) => current && setResult(loaded),
      (error: unknown) => current && setProblem(error instanceof Error ? error.message : String(error)),
    );
    return () => {
      current = false;
    };
  }, [store, task.id, task.resultRef]);

  // Opening the editor moves the keyboard focus into it.
  const editing = draft !== undefined;
  useEffect(() => {
    if (editing) editor.current?.focus();
  }, [editing]);

  function sendEdit(event: Event) {
    event.preventDefault();
    const text = (draft ?? '').trim();
    if (text === '') {
      setProblem(t('sidepanel_review_edit_empty'));
      return;
    }
    onReview(task.id, { kind: 'edit', text });
  }

  return (
    <li class="review-card" data-task-id={task.id}>
      <h4>{name}</h4>
      {result ? <MarkdownView source={result.markdown ?? ''} /> : !problem && <p class="muted">{t('sidepanel_result_loading')}</p>}
      {!editing ? (
        <div class="button-row">
          <button type="button" class="small-button primary" aria-label={t('sidepanel_review_approve_label', name)} onClick={() => onReview(task.id, { kind: 'approve' })}>
            {t('sidepanel_review_approve')}
          </button>
          <button
            type="button"
            class="small-button"
            aria-label={t('sidepanel_review_edit_label', name)}
            onClick={() => setDraft(result?.capsule ? renderCapsuleBody(result.capsule) : (result?.markdown ?? ''))}
          >
            {t('sidepanel_review_edit')}
          </button>
          <button type="button" class="small-button danger" aria-label={t('sidepanel_review_discard_label', name)} onClick={() => onReview(task.id, { kind: 'discard' })}>
            {t('sidepanel_review_discard')}
          </button>
        </div>
      ) : (
        <form class="review-edit" onSubmit={sendEdit}>
          <label for={fieldId}>{t('sidepanel_review_edit_field', name)}</label>
          <textarea
            id={fieldId}
            ref={editor}
            rows={10}
            maxLength={REVIEW_EDIT_MAX_CHARS}
            value={draft}
            aria-describedby={`${fieldId}-hint`}
            onInput={(event) => setDraft(event.currentTarget.value)}
          />
          <p id={`${fieldId}-hint`} class="muted">{t('sidepanel_review_edit_hint')}</p>
          <div class="button-row">
            <button type="submit" class="small-button primary">{t('sidepanel_review_send_edit')}</button>
            <button type="button" class="small-button" onClick={() => { setDraft(undefined); setProblem(undefined); }}>
              {t('sidepanel_cancel')}
            </button>
          </div>
        </form>
      )}
      {problem && <p class="error-text" role="alert">{problem}</p>}
    </li>
  );
}

function reviewLabel(review: TaskReview): UiMessageKey {
  if (review.state === 'discarded') return review.lapse ? 'sidepanel_review_state_lapsed' : 'sidepanel_review_state_discarded';
  return `sidepanel_review_state_${review.state}`;
}

/** Where a task's review stands, next to its status: waiting, approved, edited by you, discarded. */
export function ReviewMark({ review }: { review: TaskReview }) {
  return <span class={`review-mark review-${review.state}`}>{t(reviewLabel(review))}</span>;
}
