import { fakeBrowser } from 'wxt/testing/fake-browser';
import englishMessages from '../../public/_locales/en/messages.json';

type Messages = Record<string, { message: string; placeholders?: Record<string, { content: string }> }>;

/**
 * Gives WXT's fake browser an `i18n.getMessage` that answers from the English messages file, with
 * `$1` substitutions and named placeholders, so component tests read the text a user reads.
 */
export function installEnglishMessages(): void {
  installMessages(englishMessages as Messages);
}

/** As {@link installEnglishMessages}, from another locale's messages (a browser set to that language). */
export function installMessages(messages: Messages): void {
  const getMessage = (key: string, substitutions?: string | string[]): string => {
    const entry = messages[key];
    if (!entry) return '';
    const values = substitutions === undefined ? [] : Array.isArray(substitutions) ? substitutions : [substitutions];
    const fill = (text: string) => text.replace(/\$(\d)/g, (whole, digit: string) => values[Number(digit) - 1] ?? whole);
    const named = entry.message.replace(/\$([A-Za-z_]+)\$/g, (whole, name: string) => {
      const placeholder = entry.placeholders?.[name.toLowerCase()];
      return placeholder ? fill(placeholder.content) : whole;
    });
    return fill(named);
  };
  (fakeBrowser.i18n as unknown as { getMessage: typeof getMessage }).getMessage = getMessage;
}
