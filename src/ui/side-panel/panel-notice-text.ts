import { translatedForCode } from '../../i18n';

/**
 * What the side panel shows for a refusal the background sent (`panel-error`): the background's
 * English message, with its details, in an English interface; the translation kept under
 * `panelNotice_<code>` (dashes as underscores) in another language that has one. A code without a
 * translation shows the English message.
 */
export function panelNoticeText(code: string, message: string): string {
  return translatedForCode('panelNotice', code) ?? message;
}
