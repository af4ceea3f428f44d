import { t as translate, type MessageKey } from '../i18n';

/** Every message key the extension ships. */
export type UiMessageKey = MessageKey;

/**
 * The UI's text for `key` in the browser's language (foundation's `t()` in src/i18n.ts), taking
 * substitutions as separate arguments and numbers as well as strings.
 *
 * @example
 * t('sidepanel_rounds', task.usage.rounds, task.budget.maxRounds);
 */
export function t(key: UiMessageKey, ...substitutions: Array<string | number>): string {
  return substitutions.length === 0 ? translate(key) : translate(key, substitutions.map(String));
}
