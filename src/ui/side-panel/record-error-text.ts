import { translatedForCode } from '../../i18n';

/**
 * What the side panel shows for the error a task or run ended with: the background's English words
 * (with their details) in an English interface; the translation kept under `recordError_<code>`
 * (dashes as underscores) in another language that has one, such as a cancellation's reason
 * (src/runtime/cancel-reasons.ts). An error without a translation (a provider's own words) shows as
 * it was recorded.
 */
export function recordErrorText(error: { code: string; message: string }): string {
  return translatedForCode('recordError', error.code) ?? error.message;
}
