import { browser } from 'wxt/browser';
import type englishMessages from '../public/_locales/en/messages.json';

/** Every message key, taken from the English messages file (type only: nothing of it is bundled). */
export type MessageKey = keyof typeof englishMessages;

/**
 * The user-facing string for `key` in the browser's language, with `$1`-style substitutions.
 * Falls back to the key itself when the message is missing or i18n is unavailable (some tests and
 * the headless runner), so a gap shows up as a readable key rather than an empty label.
 *
 * @example
 * t('site_badgeOn');
 * t('site_permissionMissing', [origin]);
 */
export function t(key: MessageKey, substitutions?: string | string[]): string {
  try {
    const message = browser.i18n.getMessage(key as never, substitutions);
    return message === '' ? key : message;
  } catch {
    return key;
  }
}
