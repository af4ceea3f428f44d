import { browser } from 'wxt/browser';
import type { BetweenTurnsRequest } from '../messaging/run-port-messages';
import type { PanelActionOutcome } from './panel-service';
import { tabsOfOrigin } from './page-lore';

/** How long the Run button waits for a page to take the helper up and the runtime to answer. */
const ANSWER_TIMEOUT_MS = 15_000;

export interface BetweenTurnsRequests {
  /** Asks a tab of the run's site to carry the helper (its model calls go through the page), then waits for the runtime's answer. */
  ask(request: { runId: string; agentId: string; origin: string }): Promise<PanelActionOutcome>;
  /** The runtime's answer for a helper a run port started between turns (run-port-handler.ts). */
  settle(runId: string, agentId: string, outcome: PanelActionOutcome): void;
}

export interface BetweenTurnsRequestsOptions {
  tabsOf?: (origin: string) => Promise<number[]>;
  sendToTab?: (tabId: number, message: BetweenTurnsRequest) => Promise<unknown>;
  timeoutMs?: number;
}

const accepted = (answer: unknown): boolean => typeof answer === 'object' && answer !== null && (answer as { accepted?: unknown }).accepted === true;

/**
 * The Run button between turns, background side: no page is waiting for the run, so one is asked to
 * open a run port for the helper (the bridge's `run-between`), and the side panel gets the runtime's
 * answer (started, or refused with why) once that port reached it.
 */
export function createBetweenTurnsRequests(options: BetweenTurnsRequestsOptions = {}): BetweenTurnsRequests {
  const tabsOf = options.tabsOf ?? tabsOfOrigin;
  const sendToTab = options.sendToTab ?? ((tabId, message) => browser.tabs.sendMessage(tabId, message));
  const waiting = new Map<string, (outcome: PanelActionOutcome) => void>();
  const keyOf = (runId: string, agentId: string) => `${runId}\n${agentId}`;

  return {
    async ask({ runId, agentId, origin }) {
      const key = keyOf(runId, agentId);
      if (waiting.has(key)) return { ok: false, code: 'run-agent-already', message: 'This helper is being started already; watch for its task in the side panel.' };
      const answer = new Promise<PanelActionOutcome>((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(key);
          resolve({ ok: false, code: 'run-agent-no-answer', message: 'The chat’s page did not take the helper up in time. Reload the chat’s tab, then press Run again.' });
        }, options.timeoutMs ?? ANSWER_TIMEOUT_MS);
        waiting.set(key, (outcome) => {
          clearTimeout(timer);
          waiting.delete(key);
          resolve(outcome);
        });
      });
      for (const tabId of await tabsOf(origin)) {
        if (accepted(await sendToTab(tabId, { type: 'run-between-request', runId, agentId }).catch(() => undefined))) return answer;
      }
      waiting.get(key)?.({ ok: false, code: 'run-agent-no-page', message: 'A helper between turns calls the model through the chat’s page, and no open tab of this site can. Open the chat’s tab (with Retinue on for the site), then press Run again.' });
      return answer;
    },
    settle(runId, agentId, outcome) {
      waiting.get(keyOf(runId, agentId))?.(outcome);
    },
  };
}
