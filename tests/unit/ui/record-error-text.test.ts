import { beforeEach, expect, test } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import english from '../../../public/_locales/en/messages.json';
import chinese from '../../../public/_locales/zh_CN/messages.json';
import { CANCEL_REASONS } from '../../../src/runtime/cancel-reasons';
import { TaskTimeoutError } from '../../../src/runtime/run-signals';
import { recordErrorText } from '../../../src/ui/side-panel/record-error-text';
import { installMessages } from '../../support/english-messages';

type Messages = Record<string, { message: string } | undefined>;

beforeEach(() => fakeBrowser.reset());

test('every cancellation reason has its English words under its code, and Chinese words of its own', () => {
  for (const reason of Object.values(CANCEL_REASONS)) {
    const key = `recordError_${reason.code.replaceAll('-', '_')}`;
    expect((english as Messages)[key]?.message, key).toBe(reason.message);
    expect((chinese as Messages)[key]?.message, key).toBeTruthy();
    expect((chinese as Messages)[key]?.message, key).not.toBe(reason.message);
  }
});

test('an English interface shows the error as recorded; a Chinese one the translation kept for its code', () => {
  const timeout = new TaskTimeoutError(90_000).toJSON();
  installMessages(english);
  expect(recordErrorText(CANCEL_REASONS.spendCap)).toBe('Not started: the run reached its token limit.');
  expect(recordErrorText(timeout)).toBe('The task ran out of time after 90 s before returning a result.');
  installMessages(chinese);
  expect(recordErrorText(CANCEL_REASONS.spendCap)).toBe('未开始：运行已达到令牌上限。');
  expect(recordErrorText(CANCEL_REASONS.parentFailed)).toBe('交给此任务的代理在此任务完成前已失败。');
  expect(recordErrorText(timeout)).toBe('任务在返回结果前用完了时间。');
});

test('an error without a translation (a provider’s own words) shows as recorded in any language', () => {
  installMessages(chinese);
  const providerError = { code: 'provider-status', message: '429 Too Many Requests: slow down' };
  expect(recordErrorText(providerError)).toBe(providerError.message);
  expect(recordErrorText({ code: 'cancelled', message: 'The user pressed Stop.' })).toBe('The user pressed Stop.');
});
