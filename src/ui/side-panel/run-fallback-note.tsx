import type { RunFallback } from '../../records/run';
import { t, type UiMessageKey } from '../ui-text';

/** What each fallback code means, in words; a code from elsewhere (a limit) shows its reason alone. */
const FALLBACK_LABELS: Record<string, UiMessageKey> = {
  'tools-refused': 'sidepanel_fallback_tools_refused',
  'context-too-long': 'sidepanel_fallback_context_too_long',
  'history-refused': 'sidepanel_fallback_history_refused',
  'empty-answer': 'sidepanel_fallback_empty_answer',
  'cut-answer': 'sidepanel_fallback_cut_answer',
  'retinue-error': 'sidepanel_fallback_retinue_error',
};

/** The short label of a fallback, e.g. "the endpoint refuses tool calls". */
export function fallbackLabel(fallback: RunFallback): string {
  return t(FALLBACK_LABELS[fallback.code] ?? 'sidepanel_fallback_other');
}

/** A run the page's own model answered (fail open, DESIGN.md §13): that it did, and why. */
export function RunFallbackNote({ fallback }: { fallback: RunFallback }) {
  return (
    <div class="notice run-fallback" role="status">
      <p class="run-fallback-title">{t('sidepanel_run_fallback', fallbackLabel(fallback))}</p>
      <p class="muted">{fallback.reason}</p>
    </div>
  );
}
