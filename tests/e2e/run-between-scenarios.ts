import { expect } from 'vitest';
import { type ScriptedModelServer, type ScriptedTurn } from '../support/scripted-model-server';
import { isCritic, isRoot, switchOnCriticRunning } from './cadence-scenarios';
import { waitForEndedRuns } from './chat-turn-scenarios';
import { evaluateIn, waitUntil, type EvaluatingHandle } from './support/evaluating-handle';
import { sendFixtureMessage, waitForFixtureReady } from './support/fixture-pages';
import type { FixtureServer } from './support/fixture-server';
import { readRunStore } from './support/settings';

/**
 * The side panel's Run button between turns (issue 25), for Chromium and Firefox alike: on the
 * SillyTavern fixture page a turn ends; the user presses Run on the scene critic (set to run "on
 * demand") in the side panel; its task shows its result there; the next turn's root request carries
 * it under "Since your last reply".
 */

export const RUN_BETWEEN_CHAT_ID = 'Mara - 2026-12-02@02h00m00s';
const FINDING = 'The keeper’s lamp was never lit: the reply skipped it.';
const FIRST_REPLY = 'The tower stands dark.';
const NEXT_REPLY = 'She lights the lamp.';

/** Switches the primary site on with the built-in scene critic run only from the side panel. */
export const switchOnOnDemandCritic = (options: EvaluatingHandle, fixtures: FixtureServer, model: ScriptedModelServer) => switchOnCriticRunning('on demand', options, fixtures, model);

function scriptTurns(model: ScriptedModelServer): void {
  model.reset();
  model.script((request) => (isCritic(request) ? { toolCalls: [{ name: 'task_return', arguments: { summary: FINDING, status: 'completed' } }] } : undefined));
  model.script((request): ScriptedTurn | undefined => {
    if (!isRoot(request)) return undefined;
    return { content: request.systemText.includes(FINDING) ? NEXT_REPLY : FIRST_REPLY };
  });
}

/** Chooses the scene critic in the side panel's Run control (between turns) and presses Run. */
async function pressRunOnCritic(panel: EvaluatingHandle): Promise<void> {
  await waitUntil(
    () => evaluateIn(panel, () => document.querySelector('.run-agent[data-mode="between-turns"] option[value="scene-critic"]') !== null || undefined, undefined),
    { description: 'the Run control between turns offering the scene critic', timeoutMs: 30_000 },
  );
  const pressed = await evaluateIn(panel, () => {
    const select = document.querySelector<HTMLSelectElement>('.run-agent select');
    if (!select) return false;
    select.value = 'scene-critic';
    select.dispatchEvent(new Event('input', { bubbles: true }));
    const button = document.querySelector<HTMLButtonElement>('.run-agent button');
    button?.click();
    return button !== null;
  }, undefined);
  expect(pressed).toBe(true);
}

/** The scene critic's task row, opened, once it shows `expected` in its result. */
async function waitForShownResult(panel: EvaluatingHandle, expected: string): Promise<string> {
  return waitUntil(
    () =>
      evaluateIn(
        panel,
        (wanted: string) => {
          const row = Array.from(document.querySelectorAll('li.task-row')).find((item) => item.querySelector('.task-agent')?.textContent === 'scene-critic');
          if (!row || row.getAttribute('data-status') !== 'completed') return undefined;
          const toggle = row.querySelector<HTMLButtonElement>('.task-toggle');
          if (toggle?.getAttribute('aria-expanded') !== 'true') toggle?.click();
          const shown = row.querySelector('.task-result')?.textContent ?? '';
          return shown.includes(wanted) ? shown : undefined;
        },
        expected,
      ),
    { description: 'the scene critic’s result in its opened task row', timeoutMs: 30_000 },
  );
}

/** What the scenario drives in either browser: the extension's pages, a fixture page, the model and the options page. */
interface BetweenTurnsScenario {
  browser: { openExtensionPage(path: string): Promise<EvaluatingHandle>; openPage(url: string): Promise<EvaluatingHandle & { close(): Promise<void> }> };
  fixtures: FixtureServer;
  model: ScriptedModelServer;
  options: EvaluatingHandle;
}

/** Opens the side panel on the primary site and the SillyTavern fixture chat, and runs the scenario there. */
export async function runHelperBetweenTurnsIn(scenario: BetweenTurnsScenario): Promise<void> {
  const panel = await scenario.browser.openExtensionPage(`sidepanel.html?origin=${encodeURIComponent(scenario.fixtures.origins.primary)}`);
  const page = await scenario.browser.openPage(scenario.fixtures.pageUrl('/sillytavern/', { model: 'scripted-model', chat_id: RUN_BETWEEN_CHAT_ID }));
  await runHelperBetweenTurns({ options: scenario.options, panel, page, model: scenario.model });
  await page.close();
}

async function runHelperBetweenTurns(setup: { options: EvaluatingHandle; panel: EvaluatingHandle; page: EvaluatingHandle; model: ScriptedModelServer }): Promise<void> {
  const { options, panel, page, model } = setup;
  scriptTurns(model);
  await waitForFixtureReady(page);
  const first = await sendFixtureMessage(page, 'Mara reaches the lighthouse.');
  expect(first).toMatchObject({ status: 'done', reply: FIRST_REPLY });
  const { runs: ended } = await waitForEndedRuns(options, 1);
  expect(ended[0]?.status).toBe('completed');
  expect(model.requests.filter(isCritic)).toHaveLength(0);

  await pressRunOnCritic(panel);
  expect(await waitForShownResult(panel, FINDING)).toContain(FINDING);
  const [critic] = model.requests.filter(isCritic);
  expect(critic?.allText).toContain(FIRST_REPLY);
  const { runs: again, tasks } = await waitForEndedRuns(options, 1);
  expect(again[0]).toMatchObject({ status: 'completed', reply: FIRST_REPLY });
  expect(again[0]?.reopenedAt).toBeTypeOf('number');
  expect(tasks).toEqual([expect.objectContaining({ targetProfileId: 'scene-critic', startedBy: 'user', status: 'completed' })]);
  // Nothing went into the page's chat.
  expect((await readRunStore(options)).runs).toHaveLength(1);

  const before = model.requests.length;
  const second = await sendFixtureMessage(page, 'She climbs the stairs.');
  expect(second).toMatchObject({ status: 'done', reply: NEXT_REPLY });
  const secondRoot = model.requests.slice(before).filter(isRoot);
  expect(secondRoot[0]?.systemText).toContain('## Since your last reply');
  expect(secondRoot[0]?.systemText).toContain(FINDING);
  await waitForEndedRuns(options, 2);
}
