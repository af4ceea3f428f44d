import { readFileSync } from 'node:fs';
import { beforeEach, expect, test } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { loreSaveRefusalSchema } from '../../../src/messaging/lore-messages';
import { panelNoticeText } from '../../../src/ui/side-panel/panel-notice-text';
import { panelRefusalText } from '../../../src/ui/side-panel/panel-refusals';

type Messages = Record<string, { message: string }>;
const readMessages = (locale: string): Messages => JSON.parse(readFileSync(new URL(`../../../public/_locales/${locale}/messages.json`, import.meta.url), 'utf8'));
const english = readMessages('en');
const chinese = readMessages('zh_CN');

function browserSpeaks(messages: Messages): void {
  fakeBrowser.i18n.getMessage = ((key: string) => messages[key]?.message ?? '') as typeof fakeBrowser.i18n.getMessage;
}

beforeEach(() => fakeBrowser.reset());

const siteOff = 'Retinue is switched off for http://127.0.0.1:8000, so it writes nothing into its lorebooks. Switch it on for that site and apply again, or discard this proposal.';

test('an English interface shows the background’s message with its details', () => {
  browserSpeaks(english);
  expect(panelNoticeText('lore-site-off', siteOff)).toBe(siteOff);
});

test('a Chinese interface shows the translation kept for the code', () => {
  browserSpeaks(chinese);
  expect(panelNoticeText('lore-site-off', siteOff)).toBe('Retinue 已在该站点关闭，因此不会写入其世界书。请为该站点开启 Retinue 后再应用，或放弃此提议。');
  expect(panelNoticeText('run-agent-side-panel-only', 'This is done from the side panel only; open the side panel and try there.')).toBe('此操作只能在侧边栏中进行；请打开侧边栏再试。');
});

test('a code without a translation, or no i18n at all, shows the message as sent', () => {
  browserSpeaks(chinese);
  expect(panelNoticeText('panel-action-failed', 'That did not work: boom')).toBe('That did not work: boom');
  fakeBrowser.i18n.getMessage = (() => {
    throw new Error('not implemented');
  }) as typeof fakeBrowser.i18n.getMessage;
  expect(panelNoticeText('lore-site-off', siteOff)).toBe(siteOff);
});

/** Every refusal code the background tells the side panel, read from the modules that refuse. */
function refusalCodes(): string[] {
  const files = [
    'src/runtime/guidance.ts',
    'src/runtime/cadence-start.ts',
    'src/runtime/between-turns.ts',
    'src/background/between-turns-requests.ts',
    'src/runtime/task-review.ts',
    'src/runtime/ended-run-review.ts',
    'src/background/lore-decisions.ts',
    'src/background/background-context.ts',
    'src/background/panel-service.ts',
  ];
  const codes = new Set<string>();
  for (const file of files) {
    const source = readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8');
    for (const marker of ["code: '", "refused('"]) {
      for (let at = source.indexOf(marker); at !== -1; at = source.indexOf(marker, at + 1)) {
        const start = at + marker.length;
        codes.add(source.slice(start, source.indexOf("'", start)));
      }
    }
  }
  for (const action of ['guidance', 'run-agent']) codes.add(`${action}-side-panel-only`).add(`${action}-unavailable`);
  for (const refusal of loreSaveRefusalSchema.options) codes.add(`lore-${refusal}`);
  codes.delete('panel-action-failed'); // carries an error's own English words: shown as sent
  return [...codes].sort();
}

test('every refusal the side panel can be told has its words in English and Chinese', () => {
  browserSpeaks(chinese);
  const missing = refusalCodes().filter((code) => panelRefusalText(code, 'as sent') === 'as sent');
  for (const key of Object.keys(english).filter((name) => name.startsWith('panelNotice_'))) expect(chinese[key], key).toBeDefined();
  expect(missing).toEqual([]);
  expect(refusalCodes().length).toBeGreaterThan(20);
});
