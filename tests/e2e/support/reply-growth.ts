import { evaluateIn, type EvaluatingHandle } from './evaluating-handle';

/** Where each fixture page shows the reply it is receiving. */
export const LIVE_REPLY_SELECTOR = {
  openaiChat: '#messages .message.assistant:last-child .content',
  sillyTavern: '#chat .mes.pending .mes_text',
} as const;

/** One change of the live reply's length, with the page's `Date.now()` (the same clock as the test's). */
export interface GrowthSample {
  at: number;
  length: number;
}

interface SamplingWindow {
  retinueReplyGrowth?: GrowthSample[];
}

/**
 * Starts recording, in the page, every change of the length of the element `selector` finds (a
 * MutationObserver, so no change is missed between polls).
 */
export async function startSamplingReplyGrowth(page: EvaluatingHandle, selector: string): Promise<void> {
  await evaluateIn(
    page,
    (replySelector: string) => {
      const samples: GrowthSample[] = [];
      (window as SamplingWindow).retinueReplyGrowth = samples;
      let last = 0;
      new MutationObserver(() => {
        const length = document.querySelector(replySelector)?.textContent?.length ?? 0;
        if (length === last) return;
        last = length;
        samples.push({ at: Date.now(), length });
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    },
    selector,
  );
}

/** The samples recorded so far. */
export async function readReplyGrowth(page: EvaluatingHandle): Promise<GrowthSample[]> {
  return evaluateIn(page, () => [...((window as SamplingWindow).retinueReplyGrowth ?? [])], undefined);
}
