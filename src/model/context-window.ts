/**
 * How a window an endpoint stated in a context-length refusal becomes a size to trim to: Retinue
 * counts with its own estimate (`token-estimate.ts`), so the stated window is turned into estimated
 * tokens, by the ratio measured on the refused prompt when the refusal said its length, with a
 * margin for what the estimate may miss.
 */
import type { StatedContextWindow } from './endpoint-refusals';
import type { LearnedContextWindow } from './tool-protocol-memory';

/** Left free when the ratio was measured on the refused prompt: the rest of a prompt may count a little differently. */
export const MEASURED_WINDOW_MARGIN = 0.1;
/** Left free when it was not: another tokenizer may count a quarter more than the estimate. */
export const UNMEASURED_WINDOW_MARGIN = 0.25;
/** A `max_tokens` the refusal did not count is reserved up to this share of the window. */
const MAX_RESERVED_SHARE = 0.25;

/**
 * The window to remember from a refusal, `estimatedPromptTokens` being Retinue's estimate of the
 * prompt that was refused.
 *
 * @example
 * learnedWindowFrom({ windowTokens: 2048, promptTokens: 2800 }, 2000);
 * // → { windowTokens: 2048, tokensPerEstimatedToken: 1.4, measured: true }
 */
export function learnedWindowFrom(stated: StatedContextWindow, estimatedPromptTokens: number): LearnedContextWindow {
  const measured = stated.promptTokens !== undefined && estimatedPromptTokens > 0;
  const ratio = measured ? Math.min(10, Math.max(0.1, (stated.promptTokens ?? 0) / estimatedPromptTokens)) : 1;
  return {
    windowTokens: stated.windowTokens,
    tokensPerEstimatedToken: ratio,
    measured,
    ...(stated.completionTokens !== undefined ? { completionTokens: stated.completionTokens } : {}),
  };
}

/**
 * How many tokens, as Retinue estimates them, a prompt may take to fit the window and leave room
 * for the answer (the completion the refusal counted, else the call's `max_tokens` up to a quarter
 * of the window). Zero or less: nothing fits.
 */
export function estimatedPromptBudget(window: LearnedContextWindow, maxTokens: number | undefined): number {
  const reserved = window.completionTokens ?? Math.min(maxTokens ?? 0, Math.floor(window.windowTokens * MAX_RESERVED_SHARE));
  const margin = window.measured ? MEASURED_WINDOW_MARGIN : UNMEASURED_WINDOW_MARGIN;
  return Math.floor(((window.windowTokens - reserved) * (1 - margin)) / window.tokensPerEstimatedToken);
}
