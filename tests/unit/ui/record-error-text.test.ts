import { beforeEach, expect, test } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import english from '../../../public/_locales/en/messages.json';
import chinese from '../../../public/_locales/zh_CN/messages.json';
import { HostContractError } from '../../../src/errors';
import type { ModelTarget } from '../../../src/model/model-client';
import { providerErrorFor } from '../../../src/model/provider-errors';
import type { AttemptFailure } from '../../../src/model/retry-policy';
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

const target: ModelTarget = { label: 'Story model', baseURL: 'https://models.example/v1', apiKey: 'sk-test', model: 'story-1' };
type FinalFailure = Exclude<AttemptFailure, { kind: 'aborted' }>;
const status = (code: number, refusal?: 'context-length' | 'history-shape' | 'tools'): FinalFailure => ({
  kind: 'status',
  status: code,
  retryable: false,
  providerMessage: 'no',
  ...(refusal ? { refusal } : {}),
});
/** Every way a model call fails for good, each giving the code a task or run ends with. */
const failures: FinalFailure[] = [
  { kind: 'network', retryable: true, detail: 'fetch failed' },
  { kind: 'stream-broken', retryable: true, detail: 'socket hang up' },
  { kind: 'cut', retryable: true, detail: 'no finish reason' },
  { kind: 'protocol', retryable: false, detail: 'an HTML page' },
  status(400, 'context-length'),
  status(400, 'history-shape'),
  status(400, 'tools'),
  status(401),
  status(404),
  status(429),
  status(503),
  status(422),
];
const providerErrors = failures.map((failure) => providerErrorFor(target, failure, 1, { toolsOffered: true }));

test('every code a failed model call ends a task or run with has a headline in English and Chinese words of its own', () => {
  expect(new Set(providerErrors.map((error) => error.code)).size).toBe(failures.length);
  for (const { code } of providerErrors) {
    const key = `recordErrorHeadline_${code.replaceAll('-', '_')}`;
    expect((english as Messages)[key]?.message, key).toBeTruthy();
    expect((chinese as Messages)[key]?.message, key).toBeTruthy();
    expect((chinese as Messages)[key]?.message, key).not.toBe((english as Messages)[key]?.message);
  }
});

test('a Chinese interface shows an error whose words carry details by its headline, then the words as recorded; an English one as recorded', () => {
  const rateLimited = providerErrors.find((error) => error.code === 'provider-rate-limited')?.toJSON();
  const store = new HostContractError('store-failed', 'The run store could not save a step (QuotaExceededError: full).').toJSON();
  if (!rateLimited) throw new Error('No rate-limited error was made.');
  installMessages(english);
  expect(recordErrorText(rateLimited)).toBe(rateLimited.message);
  expect(recordErrorText(store)).toBe(store.message);
  installMessages(chinese);
  expect(recordErrorText(rateLimited)).toBe(`模型提供方正在限流：请稍候，或降低该连接的并发数。（原文：${rateLimited.message}）`);
  expect(recordErrorText(rateLimited)).toContain('429 Too Many Requests');
  expect(recordErrorText(store)).toBe(`浏览器存储无法读取或写入：请释放空间或重新加载扩展后再试。（原文：${store.message}）`);
});

test('an error without a translation or a headline (a provider’s own words) shows as recorded in any language', () => {
  installMessages(chinese);
  const providerError = { code: 'provider-status', message: '429 Too Many Requests: slow down' };
  expect(recordErrorText(providerError)).toBe(providerError.message);
  expect(recordErrorText({ code: 'cancelled', message: 'The user pressed Stop.' })).toBe('The user pressed Stop.');
});
