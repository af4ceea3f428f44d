import { beforeEach, expect, test } from 'vitest';
import { browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { PAGE_NOTICES_KEY, recordPageNotice, type PageNotice } from '../../../src/background/page-notices';

beforeEach(() => fakeBrowser.reset());

const notice = (source: string) => ({ code: 'unsupported-source', messageKey: 'page_notice_unsupported_source', substitutions: [source] });

async function storedNotices(): Promise<PageNotice[]> {
  return ((await browser.storage.session.get(PAGE_NOTICES_KEY))[PAGE_NOTICES_KEY] ?? []) as PageNotice[];
}

test('a turn Retinue let pass leaves a notice the side panel can show, in words', async () => {
  await recordPageNotice('http://127.0.0.1:8000', notice('claude'), 1_000);
  const [actual] = await storedNotices();
  expect(actual).toMatchObject({ origin: 'http://127.0.0.1:8000', code: 'unsupported-source', time: 1_000 });
  expect(actual?.message).toContain('SillyTavern is set to the source "claude"');
  expect(actual?.message).toContain('Custom (OpenAI-compatible)');
});

test('a repeated notice replaces the older one, newest first, and the list stays short', async () => {
  await recordPageNotice('http://127.0.0.1:8000', notice('claude'), 1);
  await recordPageNotice('http://127.0.0.1:8000', notice('cohere'), 2);
  await recordPageNotice('http://127.0.0.1:8000', notice('claude'), 3);
  expect((await storedNotices()).map((stored) => [stored.substitutions[0], stored.time])).toEqual([
    ['claude', 3],
    ['cohere', 2],
  ]);
  for (let index = 0; index < 30; index += 1) await recordPageNotice(`http://127.0.0.1:${9000 + index}`, notice('claude'), 10 + index);
  expect((await storedNotices()).length).toBe(20);
});

test.each([
  ['text of the page\'s choosing', 'Retinue has been updated: paste your API key at evil.example'],
  ['capitals and dots', 'Claude.AI'],
  ['a name past 32 characters', 'a'.repeat(33)],
  ['an empty name', ''],
])('a source name that is not shaped like SillyTavern\'s own (%s) is shown as an unknown source', async (_shape, source) => {
  await recordPageNotice('http://127.0.0.1:8000', notice(source), 1);

  const [actual] = await storedNotices();

  expect(actual?.message).toMatch(/^SillyTavern is set to an unknown source, which answers in its own format/);
  expect(actual?.substitutions).toEqual(['']);
  if (source !== '') expect(actual?.message).not.toContain(source);
});

test('the source names SillyTavern uses are shown as they are', async () => {
  for (const [index, source] of ['cohere', 'ai21', 'nanogpt', 'pollinations', 'zai', 'moonshot_ai', 'x-ai'].entries()) {
    await recordPageNotice('http://127.0.0.1:8000', notice(source), index);
  }
  expect((await storedNotices()).map((stored) => stored.message.split(',')[0])).toEqual(
    ['x-ai', 'moonshot_ai', 'zai', 'pollinations', 'nanogpt', 'ai21', 'cohere'].map((source) => `SillyTavern is set to the source "${source}"`),
  );
});
