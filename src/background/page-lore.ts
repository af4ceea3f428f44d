import { browser } from 'wxt/browser';
import { readLoreInPage, saveLoreEntryInPage, type LoreChangeFields } from '../hosts/sillytavern/lore-page-functions';
import { loreReadingSchema, loreSaveAnswerSchema, type LoreChange, type LoreSaveAnswer } from '../messaging/lore-messages';
import type { LoreReader } from '../tools/lore-books';

/** Runs one of the lore page functions in a tab's page (MAIN world, top frame) and gives back its raw answer. */
export interface LorePageRunner {
  read(tabId: number): Promise<unknown>;
  save(tabId: number, change: LoreChangeFields): Promise<unknown>;
}

/** The browser's way: `scripting.executeScript` in the page's own world, with the page's session. */
export const browserLorePages: LorePageRunner = {
  async read(tabId) {
    const [result] = await browser.scripting.executeScript({ target: { tabId, frameIds: [0] }, world: 'MAIN', func: readLoreInPage });
    return result?.result;
  },
  async save(tabId, change) {
    const [result] = await browser.scripting.executeScript({ target: { tabId, frameIds: [0] }, world: 'MAIN', func: saveLoreEntryInPage, args: [change] });
    return result?.result;
  },
};

/**
 * The lore tools' reader for one run: each read runs the reading in the run's tab. The answer is parsed
 * with zod (caps included) before any tool sees it. A tab that is gone or navigated away, or an answer
 * that does not parse, reads as undefined (the tool says it cannot read now).
 */
export function createTabLoreReader(tabId: number, pages: LorePageRunner): LoreReader {
  return {
    async read(signal) {
      if (signal.aborted) return undefined;
      const raw = await pages.read(tabId).catch(() => undefined);
      const reading = loreReadingSchema.safeParse(raw);
      return reading.success ? reading.data : undefined;
    },
  };
}

/**
 * Writes one entry through the first of `tabIds` whose page answers (the side panel's Apply: the run's
 * page may have been reloaded since, so every open tab of its site is tried in turn). Undefined: no page
 * of the site could be written through.
 */
export async function saveLoreThroughTabs(tabIds: readonly number[], change: LoreChange, pages: LorePageRunner): Promise<LoreSaveAnswer | undefined> {
  let refused: LoreSaveAnswer | undefined;
  for (const tabId of tabIds) {
    const raw = await pages.save(tabId, change).catch(() => undefined);
    const answer = loreSaveAnswerSchema.safeParse(raw);
    if (answer.success && answer.data.ok) return answer.data;
    // Another tab of the site may be the SillyTavern page; keep what this one said in case none is.
    if (answer.success) refused ??= answer.data;
  }
  return refused;
}

/** The open tabs of a site, for Apply (Firefox's match patterns take no port, so tabs are filtered here). */
export async function tabsOfOrigin(origin: string): Promise<number[]> {
  const tabs = await browser.tabs.query({}).catch(() => []);
  return tabs.flatMap((tab) => (typeof tab.id === 'number' && originOf(tab.url) === origin ? [tab.id] : []));
}

function originOf(url: string | undefined): string | undefined {
  try {
    return url ? new URL(url).origin : undefined;
  } catch {
    return undefined;
  }
}
