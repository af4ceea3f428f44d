import { loreTabAnswerSchema, type LoreChange, type LoreSaveAnswer, type LoreTabRequest } from '../messaging/lore-messages';
import { browser } from 'wxt/browser';
import type { LoreReader } from '../tools/lore-books';

/** Sends a lore request to a tab's bridge (its top frame) and gives back the raw answer. */
export type SendLoreToTab = (tabId: number, request: LoreTabRequest) => Promise<unknown>;

/**
 * The lore tools' reader for one run: each read asks the run's tab, whose page hook reads the books
 * with the page's own session. The bridge parsed and capped the answer; it is parsed again here.
 * A tab that is gone, switched off or slow reads as undefined (the tool says it cannot read now).
 */
export function createTabLoreReader(tabId: number, send: SendLoreToTab): LoreReader {
  return {
    async read(signal) {
      if (signal.aborted) return undefined;
      const raw = await send(tabId, { type: 'lore-read-request' }).catch(() => undefined);
      const answer = loreTabAnswerSchema.safeParse(raw);
      return answer.success && answer.data.kind === 'reading' ? answer.data.reading : undefined;
    },
  };
}

/**
 * Writes one entry through the first of `tabIds` whose page answers (the side panel's Apply: the run's
 * page may have been reloaded since, so every open tab of its site is asked in turn). Undefined: no
 * page of the site answered.
 */
export async function saveLoreThroughTabs(tabIds: readonly number[], change: LoreChange, send: SendLoreToTab): Promise<LoreSaveAnswer | undefined> {
  for (const tabId of tabIds) {
    const raw = await send(tabId, { type: 'lore-save-request', change }).catch(() => undefined);
    const answer = loreTabAnswerSchema.safeParse(raw);
    if (answer.success && answer.data.kind === 'saved') return answer.data.answer;
  }
  return undefined;
}

/** The browser's way: a runtime message to the tab's top frame, where the bridge answers. */
export const sendLoreToTab: SendLoreToTab = (tabId, request) => browser.tabs.sendMessage(tabId, request, { frameId: 0 });

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
