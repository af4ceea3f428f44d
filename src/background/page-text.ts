import { browser } from 'wxt/browser';
import englishMessages from '../../public/_locales/en/messages.json';

/** The message keys of page-facing text (errors the page shows, notices about pages). */
export type PageMessageKey = Extract<keyof typeof englishMessages, `page_${string}`>;

/**
 * Page-facing text in the browser's language with `$1`, `$2` filled in; English where `browser.i18n`
 * is unavailable (unit tests) or lacks the key.
 * TODO(2026-11-30): switch to foundation's typed `t()` in src/i18n.ts once it is merged.
 */
export function pageText(key: PageMessageKey, ...substitutions: string[]): string {
  try {
    const message = browser.i18n.getMessage(key, substitutions);
    if (message) return message;
  } catch {
    // No i18n API here: use the English text below.
  }
  const entry: { message: string; placeholders?: Record<string, { content: string }> } = englishMessages[key];
  const named = entry.message.replace(/\$([A-Za-z_]+)\$/g, (whole, name: string) => entry.placeholders?.[name.toLowerCase()]?.content ?? whole);
  return named.replace(/\$(\d)/g, (whole, digit: string) => substitutions[Number(digit) - 1] ?? whole);
}
