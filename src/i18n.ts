import { browser } from 'wxt/browser';
import englishMessages from '../public/_locales/en/messages.json';

/** Every message key, taken from the English messages file. */
export type MessageKey = keyof typeof englishMessages;

type MessageEntry = { message: string; placeholders?: Record<string, { content: string }> };

/**
 * The English text of `key` filled the way `browser.i18n.getMessage` fills it: named placeholders
 * (`$REASON$`) become their `content`, then `$1`, `$2` the substitutions. Undefined for an unknown key.
 */
function englishMessage(key: string, substitutions: string[]): string | undefined {
  const entry = (englishMessages as Record<string, MessageEntry | undefined>)[key];
  if (!entry) return undefined;
  const named = entry.message.replace(/\$([A-Za-z_]+)\$/g, (whole, name: string) => entry.placeholders?.[name.toLowerCase()]?.content ?? whole);
  return named.replace(/\$(\d)/g, (whole, digit: string) => substitutions[Number(digit) - 1] ?? whole);
}

/**
 * The user-facing string for `key` in the browser's language, with `$1`-style substitutions. Where
 * `browser.i18n` is unavailable or lacks the message (unit tests, the headless runner) it is the
 * bundled English text, and only a key English lacks too comes back as the key itself, so a gap
 * shows up as a readable key rather than an empty label.
 *
 * @example
 * t('site_badgeOn');
 * t('site_permissionMissing', [origin]);
 */
export function t(key: MessageKey, substitutions?: string | string[]): string {
  const values = substitutions === undefined ? [] : Array.isArray(substitutions) ? substitutions : [substitutions];
  try {
    const message = browser.i18n.getMessage(key as never, substitutions);
    if (message) return message;
  } catch {
    // No i18n API here: the English text below.
  }
  return englishMessage(key, values) ?? key;
}

/**
 * The translation kept for a code the background sent under `<prefix>_<code>` (dashes as
 * underscores), where the browser's language has one; see {@link translatedMessage}.
 */
export function translatedForCode(prefix: string, code: string): string | undefined {
  return translatedMessage(`${prefix}_${code.replaceAll('-', '_')}`);
}

/**
 * The message for `key` only where the browser's language has a translation of its own: undefined
 * for an unknown key, where `browser.i18n` is unavailable, or where the browser falls back to the
 * English text. For texts the background composed in English with the details filled in, which the
 * English interface shows as they are and other languages replace with their own words.
 */
export function translatedMessage(key: string): string | undefined {
  const english = englishMessage(key, []);
  if (english === undefined) return undefined;
  try {
    const message = browser.i18n.getMessage(key as never);
    return message && message !== english ? message : undefined;
  } catch {
    return undefined;
  }
}
