import type { AgentRun } from '../records/run';
import { t } from '../i18n';

/** The HTTP status the page gets for a run Retinue cancelled (nginx's "client closed request"). */
export const CANCELLED_STATUS = 499;

/** What the page shows when its turn could not become a reply: an HTTP status and words a person understands. */
export interface PageErrorAnswer {
  status: number;
  message: string;
}

/** The answer for a run that ended cancelled or failed. */
export function pageAnswerForRun(run: AgentRun): PageErrorAnswer {
  if (run.status === 'cancelled') return { status: CANCELLED_STATUS, message: t('page_error_cancelled') };
  if (run.status === 'interrupted') return pageAnswerForInterruptedRun();
  const cause = run.error?.message ?? run.status;
  const status = run.error?.code.startsWith('provider-') ? 502 : 500;
  return { status, message: t('page_error_run_failed', [cause]) };
}

/** The answer for a run Retinue gave up after a restart because no page was waiting for it any more. */
export function pageAnswerForInterruptedRun(): PageErrorAnswer {
  return { status: 503, message: t('page_error_run_interrupted') };
}

/** The answer for a request Retinue could not read as a chat turn. */
export function pageAnswerForUnreadableRequest(reason: string): PageErrorAnswer {
  return { status: 400, message: t('page_error_request_unreadable', [reason]) };
}

/** The answer for an error the runtime threw instead of ending the run (storage broke, say). */
export function pageAnswerForCrash(error: unknown): PageErrorAnswer {
  const reason = error instanceof Error ? error.message : String(error);
  return { status: 500, message: t('page_error_run_failed', [reason]) };
}
