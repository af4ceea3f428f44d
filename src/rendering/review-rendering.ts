import type { TaskReview } from '../records/task-review';
import type { TaskView } from '../tools/tool-definition';
import { CAPSULE_CHAR_CAP, renderCapsuleForParent, taskNotesFolder } from './capsule-markdown';
import { capText } from './markdown-rendering';

/** Why a result was discarded, as the parent reads it. */
function discardReason(review: Extract<TaskReview, { state: 'discarded' }>): string {
  if (review.lapse === 'await-timeout') return 'Its result waited for the user\'s review, and nobody reviewed it before your wait ended, so it is discarded.';
  if (review.lapse === 'reply-deadline') return 'Its result waited for the user\'s review, and nobody reviewed it before the reply was due, so it is discarded.';
  return 'The user reviewed its result and discarded it.';
}

/**
 * A finished task whose result went through review, as the parent reads it in `agent.await`:
 * approved (the capsule, with a line saying so), edited (the user's text, marked as theirs) or
 * discarded (no result, and why). Undefined when the task had no review.
 */
export function renderReviewedForParent(view: TaskView): string | undefined {
  const review = view.review;
  if (!review || review.state === 'awaiting') return undefined;
  if (review.state === 'approved' && view.capsule) {
    return `${renderCapsuleForParent(view.capsule)}\n\nThe user reviewed this result and approved it.`;
  }
  if (review.state === 'edited') {
    const full = [
      `### ${view.name} — edited by the user`,
      `_${view.title}_`,
      '',
      'The user reviewed this result and rewrote it. Their text below is the result; it replaces what the agent wrote:',
      '',
      review.editedText,
    ].join('\n');
    return capText(full, CAPSULE_CHAR_CAP, `… (cut at ${CAPSULE_CHAR_CAP.toLocaleString('en-US')} characters; read \`${taskNotesFolder(view.name)}result.md\` for the rest)`);
  }
  if (review.state === 'discarded') {
    return `### ${view.name} — discarded\n_${view.title}_\n\n${discardReason(review)} Go on without it.`;
  }
  return undefined;
}

/** A task whose result waits for the user, in the list of where tasks stand. */
export function awaitingReviewLine(view: TaskView): string | undefined {
  return view.review?.state === 'awaiting' ? `- \`${view.name}\` — awaiting review: it finished, and the user is reviewing its result before you get it (${view.title})` : undefined;
}

/** `summaries/agents/<key>/result.md` after the user edited or discarded the result, for every reader. */
export function renderReviewedResultFile(title: string, workspaceKey: string, review: TaskReview): string | undefined {
  if (review.state === 'edited') return `# ${title}\n\nTask: ${workspaceKey} · Edited by the user\n\n${review.editedText}\n`;
  if (review.state === 'discarded') return `# ${title}\n\nTask: ${workspaceKey} · Discarded\n\n${discardReason(review)}\n`;
  return undefined;
}
