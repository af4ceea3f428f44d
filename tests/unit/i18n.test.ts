import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, test } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { t } from '../../src/i18n';

type Messages = Record<string, { message: string; placeholders?: Record<string, { content: string }> }>;
const readMessages = (locale: string): Messages =>
  JSON.parse(readFileSync(new URL(`../../public/_locales/${locale}/messages.json`, import.meta.url), 'utf8'));

beforeEach(() => fakeBrowser.reset());

describe('t()', () => {
  test('gives the browser’s message with substitutions', () => {
    fakeBrowser.i18n.getMessage = ((key: string, substitutions?: string[]) => `${key}:${(substitutions ?? []).join(',')}`) as typeof fakeBrowser.i18n.getMessage;

    expect(t('site_titleOn', ['http://127.0.0.1:8000'])).toBe('site_titleOn:http://127.0.0.1:8000');
  });

  test('falls back to the English text, filled in, when the message is missing or i18n is unavailable', () => {
    fakeBrowser.i18n.getMessage = (() => '') as typeof fakeBrowser.i18n.getMessage;
    const missing = t('page_error_run_failed', ['The model answered 401.']);
    fakeBrowser.i18n.getMessage = (() => {
      throw new Error('not implemented');
    }) as typeof fakeBrowser.i18n.getMessage;
    const unavailable = t('page_error_run_failed', 'The model answered 401.');

    const english = 'Retinue could not finish this reply. The model answered 401.';
    expect([missing, unavailable]).toEqual([english, english]);
  });

  test('a key English lacks too comes back as the key, readable rather than empty', () => {
    fakeBrowser.i18n.getMessage = (() => '') as typeof fakeBrowser.i18n.getMessage;
    expect(t('no_such_message' as Parameters<typeof t>[0])).toBe('no_such_message');
  });
});

describe('locales', () => {
  const english = readMessages('en');
  const chinese = readMessages('zh_CN');

  test('English and Simplified Chinese carry the same keys', () => {
    expect(Object.keys(chinese).sort()).toEqual(Object.keys(english).sort());
  });

  test('every message is non-empty and uses only placeholders it defines, in both locales', () => {
    for (const [locale, messages] of [['en', english], ['zh_CN', chinese]] as const) {
      for (const [key, entry] of Object.entries(messages)) {
        expect(entry.message.trim(), `${locale} ${key}`).not.toBe('');
        for (const [, name] of entry.message.matchAll(/\$([A-Za-z_]+)\$/g)) {
          expect(entry.placeholders?.[String(name).toLowerCase()], `${locale} ${key} placeholder ${name}`).toBeDefined();
        }
      }
    }
  });

  test('the manifest strings are localized', () => {
    for (const key of ['extName', 'extDescription', 'actionTitle']) {
      expect(english[key]?.message).toBeTruthy();
      expect(chinese[key]?.message).toBeTruthy();
    }
  });
});
