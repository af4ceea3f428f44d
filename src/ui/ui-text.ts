import { browser } from 'wxt/browser';
import englishMessages from '../../public/_locales/en/messages.json';

/** Every message key the extension ships (English is the complete set). */
export type UiMessageKey = keyof typeof englishMessages;

function fillIn(template: string, substitutions: readonly string[]): string {
  return template.replace(/\$(\d)/g, (whole, digit: string) => substitutions[Number(digit) - 1] ?? whole);
}

/**
 * The user-facing text for `key` in the browser's language, with `$1`, `$2`... filled in.
 * Falls back to English where `browser.i18n` is unavailable (unit tests) or lacks the key.
 * TODO(2026-11-30): switch to foundation's typed `t()` in src/i18n.ts once it is merged.
 */
export function t(key: UiMessageKey, ...substitutions: Array<string | number>): string {
  const values = substitutions.map(String);
  try {
    const message = browser.i18n.getMessage(key, values);
    if (message) return message;
  } catch {
    // No i18n API here: use the English text below.
  }
  return fillIn(englishMessages[key].message, values);
}
