import { t, translatedForCode } from '../../i18n';

/**
 * What the side panel shows for the error a task or run ended with: the background's English words
 * (with their details) in an English interface. In another language: the translation kept under
 * `recordError_<code>` (dashes as underscores) for an error whose words are fixed, such as a
 * cancellation's reason (src/runtime/cancel-reasons.ts); for one whose words carry details (a
 * provider's status and its own words, a store's failure), the headline kept under
 * `recordErrorHeadline_<code>` followed by the words as recorded; an error with neither shows as
 * recorded.
 */
export function recordErrorText(error: { code: string; message: string }): string {
  const whole = translatedForCode('recordError', error.code);
  if (whole) return whole;
  const headline = translatedForCode('recordErrorHeadline', error.code);
  return headline ? t('sidepanel_error_headline_recorded', [headline, error.message]) : error.message;
}
