import { browser } from 'wxt/browser';
import type { HostNotice } from '../hosts/host-adapter';
import { pageText, type PageMessageKey } from './page-text';

/** The `browser.storage.session` key of the notices the side panel shows about pages. */
export const PAGE_NOTICES_KEY = 'pageNotices';
const MAX_NOTICES = 20;

/** One notice about a page, e.g. a SillyTavern source Retinue cannot speak. */
export interface PageNotice extends HostNotice {
  origin: string;
  /** The notice in the browser's language. */
  message: string;
  time: number;
}

/**
 * Keeps a notice for the side panel (newest first, a handful at most, for this browser session), so a
 * chat turn Retinue let pass is never a silent failure. A repeat of the same notice replaces the older one.
 */
export async function recordPageNotice(origin: string, notice: HostNotice, now: number = Date.now()): Promise<void> {
  const message = pageText(notice.messageKey as PageMessageKey, ...notice.substitutions);
  const stored = await browser.storage.session.get(PAGE_NOTICES_KEY);
  const previous = Array.isArray(stored[PAGE_NOTICES_KEY]) ? (stored[PAGE_NOTICES_KEY] as PageNotice[]) : [];
  const others = previous.filter((old) => !(old.origin === origin && old.code === notice.code && old.substitutions.join() === notice.substitutions.join()));
  await browser.storage.session.set({ [PAGE_NOTICES_KEY]: [{ ...notice, origin, message, time: now }, ...others].slice(0, MAX_NOTICES) });
}
