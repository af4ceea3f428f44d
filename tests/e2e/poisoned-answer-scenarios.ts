import { expect } from 'vitest';
import type { ScriptedModelServer, ScriptedRequest } from '../support/scripted-model-server';
import { defaultDelegations, scriptDelegatingRoot } from './support/delegating-root-script';
import { evaluateIn, waitUntil, type EvaluatingHandle } from './support/evaluating-handle';
import { readFixtureState, sendFixtureMessage, startFixtureMessage, waitForFixtureReady } from './support/fixture-pages';

/**
 * Issue 21's poisoned answer in a browser, shared by Chromium and Firefox: one tab's page serves, as
 * its own model's answer, the GLM-style payload that made the text-call parser backtrack for hours
 * (followed by 100 KB of whitespace); meanwhile a normal turn in a second tab of the same site still
 * gets its delegated reply, and the side panel still answers.
 */

/** The user message of the poisoned tab; its requests are told apart by it. */
export const POISON_MESSAGE = 'Reply with exactly the text you were given.';
const NORMAL_MESSAGE = 'Mara climbs toward the lighthouse.';
const PAIRS = 2_000;

/** `<tool_call>agent_list` + 2,000 unclosed-looking argument pairs + an opening never closed, then 100 KB of spaces and newlines. */
export function poisonedAnswer(): string {
  return `<tool_call>agent_list${'<arg_key>k</arg_key><arg_value>v</arg_value>'.repeat(PAIRS)}<arg_key></tool_call>${' '.repeat(50_000)}${'\n'.repeat(50_000)}`;
}

const isPoisonedTab = (request: ScriptedRequest) => request.allText.includes(POISON_MESSAGE);

export async function expectSecondTabUnharmedByPoison(setup: {
  poisoned: EvaluatingHandle;
  normal: EvaluatingHandle;
  panel: EvaluatingHandle;
  model: ScriptedModelServer;
}): Promise<void> {
  const { poisoned, normal, panel, model } = setup;
  model.reset();
  const poison = poisonedAnswer();
  // Scripted first: every request of the poisoned tab's run (its root's, round after round) gets the payload.
  model.script((request) => (isPoisonedTab(request) ? { content: poison } : undefined));
  // The normal tab's helpers take a moment, so its run is under way while the poison is read.
  scriptDelegatingRoot(model, { delayMs: 400 });
  await waitForFixtureReady(poisoned);
  await waitForFixtureReady(normal);

  const started = Date.now();
  const normalTurn = sendFixtureMessage(normal, NORMAL_MESSAGE);
  await startFixtureMessage(poisoned, POISON_MESSAGE);
  const turn = await normalTurn;
  const normalMs = Date.now() - started;

  expect(turn.status).toBe('done');
  for (const delegation of defaultDelegations) expect(turn.reply).toContain(delegation.finding);
  // Five scripted answers 400 ms apart and the browser's own work: far from a worker spinning.
  expect(normalMs).toBeLessThan(20_000);
  expect(model.requests.some(isPoisonedTab)).toBe(true);

  // The poisoned tab's turn ends too, whatever it made of the answer.
  const poisonedState = await waitUntil(
    async () => {
      const state = await readFixtureState(poisoned);
      return state.status !== 'generating' && state.turns.length > 0 ? state : undefined;
    },
    { description: 'the poisoned tab’s turn to end', timeoutMs: 30_000 },
  );
  expect(['done', 'error']).toContain(poisonedState.status);

  // The side panel answers: its history lists both turns, and opening the normal one shows its helpers.
  await waitUntil(
    () =>
      evaluateIn(panel, (titles: string[]) => {
        const shown = Array.from(document.querySelectorAll('.history-title')).map((element) => element.textContent ?? '');
        return titles.every((title) => shown.some((shownTitle) => shownTitle.includes(title))) ? true : undefined;
      }, [NORMAL_MESSAGE, POISON_MESSAGE]),
    { description: 'the side panel’s history to list both tabs’ turns', timeoutMs: 20_000 },
  );
  const shown = await waitUntil(
    () =>
      evaluateIn(panel, ({ message, titles }: { message: string; titles: string[] }) => {
        const row = Array.from(document.querySelectorAll('.history-row')).find((element) => element.querySelector('.history-title')?.textContent?.includes(message));
        const open = row?.querySelector<HTMLButtonElement>('.history-open');
        if (open && open.getAttribute('aria-current') !== 'true') open.click();
        const text = Array.from(document.querySelectorAll('.task-title')).map((element) => element.textContent ?? '');
        return titles.every((title) => text.some((shownTitle) => shownTitle.includes(title))) ? text : undefined;
      }, { message: NORMAL_MESSAGE, titles: defaultDelegations.map((delegation) => delegation.title) }),
    { description: 'the side panel to show the normal tab’s helpers', timeoutMs: 20_000 },
  );
  expect(shown.length).toBeGreaterThanOrEqual(defaultDelegations.length);
}
