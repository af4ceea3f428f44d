import { browser } from 'wxt/browser';
import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import type { HostNotice } from '../hosts/host-adapter';
import { t, type MessageKey } from '../i18n';

/** The `browser.storage.session` key of the notices the side panel shows about pages. */
export const PAGE_NOTICES_KEY = 'pageNotices';
const MAX_NOTICES = 20;

/** One notice about a page, e.g. a SillyTavern source Retinue cannot speak. */
export const pageNoticeSchema = lazySchema(() => z.object({
  origin: z.string().max(2_000),
  code: z.string().max(100),
  messageKey: z.string().max(200),
  substitutions: z.array(z.string().max(2_000)).max(9),
  /** The notice in the browser's language. */
  message: z.string().max(4_000),
  time: z.number(),
}));
export type PageNotice = z.infer<typeof pageNoticeSchema>;

/**
 * The stored notices, newest first; anything that is not a notice (an older shape, a broken write)
 * is left out rather than shown.
 */
export function parsePageNotices(stored: unknown): PageNotice[] {
  if (!Array.isArray(stored)) return [];
  return stored.slice(0, MAX_NOTICES).flatMap((entry) => {
    const parsed = pageNoticeSchema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

/** Whether two notices say the same thing about the same page (the newer one replaces the older). */
export function isSamePageNotice(left: Pick<PageNotice, 'origin' | 'code' | 'substitutions'>, right: Pick<PageNotice, 'origin' | 'code' | 'substitutions'>): boolean {
  return left.origin === right.origin && left.code === right.code && left.substitutions.join('\u0000') === right.substitutions.join('\u0000');
}

/** A source name as SillyTavern spells its own (`openai`, `makersuite`, `ai21`); anything else is the page's text. */
const SHOWABLE_SOURCE_NAME = /^[a-z0-9_-]{1,32}$/;

/**
 * The notice as Retinue may say it: a page chooses the source name it sends, so only a name shaped
 * like SillyTavern's own goes into Retinue's words, and any other becomes "an unknown source".
 */
function checkedNotice(notice: HostNotice): HostNotice {
  if (notice.messageKey !== 'page_notice_unsupported_source') return notice;
  const source = notice.substitutions[0] ?? '';
  return { ...notice, substitutions: [SHOWABLE_SOURCE_NAME.test(source) ? source : ''] };
}

function noticeText(notice: HostNotice): string {
  if (notice.messageKey !== 'page_notice_unsupported_source') return t(notice.messageKey as MessageKey, notice.substitutions);
  const source = notice.substitutions[0] ?? '';
  return t('page_notice_unsupported_source', source === '' ? t('page_notice_source_unknown') : t('page_notice_source_named', source));
}

/**
 * Keeps a notice for the side panel (newest first, a handful at most, for this browser session), so a
 * chat turn Retinue let pass is never a silent failure. A repeat of the same notice replaces the older one.
 */
export async function recordPageNotice(origin: string, pageNotice: HostNotice, now: number = Date.now()): Promise<void> {
  const notice = checkedNotice(pageNotice);
  const message = noticeText(notice);
  const stored = await browser.storage.session.get(PAGE_NOTICES_KEY);
  const fresh: PageNotice = { ...notice, origin, message, time: now };
  const others = parsePageNotices(stored[PAGE_NOTICES_KEY]).filter((old) => !isSamePageNotice(old, fresh));
  await browser.storage.session.set({ [PAGE_NOTICES_KEY]: [fresh, ...others].slice(0, MAX_NOTICES) });
}

/** Removes one notice (the side panel's dismiss button). */
export async function dismissPageNotice(notice: PageNotice): Promise<void> {
  const stored = await browser.storage.session.get(PAGE_NOTICES_KEY);
  const kept = parsePageNotices(stored[PAGE_NOTICES_KEY]).filter((old) => !(isSamePageNotice(old, notice) && old.time === notice.time));
  await browser.storage.session.set({ [PAGE_NOTICES_KEY]: kept });
}
