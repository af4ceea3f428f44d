import { CancelledError } from '../errors';

/**
 * Why a task or a run was cancelled: a code the side panel finds its own words under (`recordError_<code>`,
 * dashes as underscores) and the English words the model and an English panel read.
 */
export interface CancelReason {
  code: string;
  message: string;
}

export const CANCEL_REASONS = {
  byUser: { code: 'task-cancelled-by-user', message: 'Cancelled by the user.' },
  byDelegator: { code: 'task-cancelled-by-delegator', message: 'Cancelled by the agent that delegated it.' },
  runEnded: { code: 'task-run-ended', message: 'The run ended before this task finished.' },
  runFailed: { code: 'task-run-failed', message: 'The run failed before this task finished.' },
  parentCompleted: { code: 'task-parent-completed', message: 'The agent that gave this task finished before this task did.' },
  parentFailed: { code: 'task-parent-failed', message: 'The agent that gave this task failed before this task finished.' },
  parentCancelled: { code: 'task-parent-cancelled', message: 'The agent that gave this task was cancelled.' },
  spendCap: { code: 'task-not-started-spend-cap', message: 'Not started: the run reached its token limit.' },
  historyCap: { code: 'task-not-started-history-cap', message: 'Not started: the run reached the size its history may have.' },
  pageStopped: { code: 'run-page-stopped', message: 'The page stopped the generation.' },
  pageGone: { code: 'run-page-gone', message: 'The page went away before the reply was finished.' },
  runByUser: { code: 'run-cancelled-by-user', message: 'The run was cancelled.' },
} as const satisfies Record<string, CancelReason>;

/** The error a task or run cancelled for `reason` ends with. */
export function cancelledFor(reason: CancelReason): CancelledError {
  return new CancelledError(reason.message, { code: reason.code });
}

/** The reason an error that ended a run gives its unfinished tasks (its own code and words). */
export function reasonOf(error: { code: string; message: string }): CancelReason {
  return { code: error.code, message: error.message };
}
