import { t, type MessageKey } from './i18n';

/**
 * A message counted in two forms: `<base>_one` ("$1 call") and `<base>_other` ("$1 calls"), both
 * in every locale (Chinese gives both the same text).
 */
export type CountedMessageKey = {
  [Key in MessageKey]: Key extends `${infer Base}_other` ? (`${Base}_one` extends MessageKey ? Base : never) : never;
}[MessageKey];

const pluralRules = new Map<string, Intl.PluralRules>();

/**
 * The CLDR plural category of `count` in `locale`, folded to the two forms the messages carry: a
 * language with more (few, many, two) uses its `_other` text for them until it ships its own keys.
 */
export function pluralForm(count: number, locale: string): 'one' | 'other' {
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRules.set(locale, rules);
  }
  return rules.select(count) === 'one' ? 'one' : 'other';
}

/**
 * The language of the messages file in use. `browser.i18n` has no plural rules and falls back to
 * English where the browser's language has no messages, so the form follows the file actually
 * shown (its `count_locale` message), not the browser's language: French rules would make "0 call".
 */
function messagesLocale(): string {
  return t('count_locale');
}

/**
 * A count meeting a noun, in the right form for the language shown: `$1` is the count as the
 * reader's digits, `$2`… the `others`.
 *
 * @example
 * countText('sidepanel_cost_calls', 1); // "1 model call"
 * countText('sidepanel_memory_file', 12, 'memory/notes.md'); // "memory/notes.md · 12 characters"
 */
export function countText(key: CountedMessageKey, count: number, ...others: Array<string | number>): string {
  const form = pluralForm(count, messagesLocale());
  const formKey = `${key}_${form}` as MessageKey;
  return t(formKey, [countFormat.format(count), ...others.map(String)]);
}

const countFormat = new Intl.NumberFormat();
