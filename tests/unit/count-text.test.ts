import { afterEach, describe, expect, test } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import englishMessages from '../../public/_locales/en/messages.json';
import chineseMessages from '../../public/_locales/zh_CN/messages.json';
import { countText, pluralForm } from '../../src/count-text';
import { installEnglishMessages, installMessages } from '../support/english-messages';

afterEach(() => fakeBrowser.reset());

describe('countText', () => {
  test('English: one is singular; zero and many are plural', () => {
    installEnglishMessages();

    const actual = [0, 1, 2, 1_500].map((count) => countText('sidepanel_cost_calls', count));

    expect(actual).toEqual(['0 model calls', '1 model call', '2 model calls', '1,500 model calls']);
  });

  test('English without browser.i18n (unit tests, the headless runner) still picks the form', () => {
    fakeBrowser.i18n.getMessage = (() => {
      throw new Error('not implemented');
    }) as typeof fakeBrowser.i18n.getMessage;

    expect([countText('sidepanel_replied_helpers_working', 1), countText('sidepanel_replied_helpers_working', 3)]).toEqual([
      'replied; 1 helper still working',
      'replied; 3 helpers still working',
    ]);
  });

  test('the other substitutions follow the count, wherever the message puts them', () => {
    installEnglishMessages();

    expect(countText('sidepanel_memory_file', 1, 'state.md')).toBe('state.md · 1 character');
    expect(countText('sidepanel_cost_tokens', 1, '40')).toBe('1 token in, 40 out');
  });

  test('Simplified Chinese: one form for every count', () => {
    installMessages(chineseMessages);

    const actual = [1, 2].map((count) => countText('sidepanel_replied_helpers_working', count));

    expect(actual).toEqual(['已回复；仍有 1 个助手在工作', '已回复；仍有 2 个助手在工作']);
    expect(pluralForm(1, 'zh-CN')).toBe('other');
  });

  test('the form follows the messages shown, not the browser language: French falls back to English, and English 0 is plural', () => {
    // A French browser: no French messages, so browser.i18n answers from English (the default locale).
    installEnglishMessages();

    expect(pluralForm(0, 'fr')).toBe('one');
    expect(countText('sidepanel_conversation_runs', 0)).toBe('0 runs');
  });
});

describe('counted messages', () => {
  const locales = { en: englishMessages as Record<string, { message: string }>, zh_CN: chineseMessages as Record<string, { message: string }> };

  test('each `_one` has its `_other`, and each counted `_other` its `_one`, in both locales', () => {
    for (const [locale, messages] of Object.entries(locales)) {
      const keys = Object.keys(messages);
      for (const key of keys.filter((name) => name.endsWith('_one'))) expect(keys, `${locale} ${key}`).toContain(key.replace(/_one$/, '_other'));
      // `sidepanel_fallback_other` is the "other reason" of a fallback, not a count: it has no $1.
      const counted = keys.filter((name) => name.endsWith('_other') && messages[name]?.message.includes('$1'));
      for (const key of counted) expect(keys, `${locale} ${key}`).toContain(key.replace(/_other$/, '_one'));
    }
  });

  test('English gives the two forms different words, and each names the count as $1', () => {
    for (const [key, entry] of Object.entries(locales.en).filter(([name]) => name.endsWith('_one'))) {
      const other = locales.en[key.replace(/_one$/, '_other')];
      expect(entry.message, key).not.toBe(other?.message);
      expect(entry.message, key).toContain('$1');
    }
  });

  test('the messages files name their own language for the plural rules', () => {
    expect([locales.en.count_locale?.message, locales.zh_CN.count_locale?.message]).toEqual(['en', 'zh-CN']);
  });
});
