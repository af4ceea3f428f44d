import { expect } from 'vitest';
import { messageText, type ScriptedModelServer } from '../support/scripted-model-server';
import { scenarioSettings } from './chat-turn-scenarios';
import { clickByLabel } from './review-scenarios';
import { evaluateIn, waitUntil, type EvaluatingHandle } from './support/evaluating-handle';
import { sendFixtureMessage, waitForFixtureReady } from './support/fixture-pages';
import type { FixtureServer } from './support/fixture-server';
import { writeSettings } from './support/settings';

/** The entry the continuity checker proposes for the fixture book "Mira" (entry #0). */
export const PROPOSED_CONTENT = 'Mira is a courier from the northern clans. The scar on her left hand has healed.';

interface FixtureLore {
  loreSaves: { name: string; data: { entries: Record<string, { key: string[]; content: string }> }; immediately: boolean }[];
}

/**
 * A root that delegates one continuity check, awaits it and replies; a continuity checker that lists
 * this turn's activated entries, searches for one that did not activate, proposes a change to "Mira #0"
 * and returns. What each lore tool answered is kept for the test.
 */
function scriptLoreTurn(model: ScriptedModelServer): Map<string, string> {
  const answers = new Map<string, string>();
  model.reset();
  model.script((request) => {
    if (!request.toolNames.includes('task_return') || !request.systemText.includes('You are a continuity checker')) return undefined;
    const results = request.body.messages.filter((message) => message.role === 'tool').map((message) => messageText(message));
    const steps = ['lore_list_activated', 'lore_search', 'lore_propose'];
    if (results.length > 0) answers.set(steps[results.length - 1] ?? 'late', results.at(-1) ?? '');
    if (!request.toolNames.includes('lore_propose')) return { toolCalls: [{ name: 'task_return', arguments: { summary: 'No lore tools were offered.', status: 'failed' } }] };
    switch (results.length) {
      case 0:
        return { toolCalls: [{ name: 'lore_list_activated', arguments: {} }] };
      case 1:
        return { toolCalls: [{ name: 'lore_search', arguments: { query: 'vault' } }] };
      case 2:
        return {
          toolCalls: [{ name: 'lore_propose', arguments: { ref: 'Mira #0', book: 'Mira', keys: ['Mira', 'courier'], content: PROPOSED_CONTENT, reason: 'The last message says her scar has healed.' } }],
        };
      default:
        return { toolCalls: [{ name: 'task_return', arguments: { summary: 'Mira #0 says she has a scar; the chat says it healed. Proposed an update.', status: 'completed' } }] };
    }
  });
  model.script((request) => {
    if (!request.toolNames.includes('agent_delegate')) return undefined;
    const results = request.body.messages.filter((message) => message.role === 'tool').map((message) => messageText(message));
    if (results.length === 0) {
      return { toolCalls: [{ name: 'agent_delegate', arguments: { agentId: 'continuity-checker', task: { title: 'Check Mira against the lore', objective: 'Check the scar.' } } }] };
    }
    if (results.length === 1) return { toolCalls: [{ name: 'agent_await', arguments: { mode: 'allCompleted' } }] };
    return { content: 'Mira shows her healed hand.' };
  });
  return answers;
}

const pageLore = (page: EvaluatingHandle) => evaluateIn(page, () => (window as unknown as { fixture: FixtureLore }).fixture.loreSaves, undefined);

/**
 * On the SillyTavern-shaped page with fixture lorebooks: a helper reads the lore through the page hook
 * (the turn's activated entries, an entry that did not activate), proposes a change, and nothing is
 * written until the user clicks Apply in the side panel; then the page's saveWorldInfo gets it, and the
 * panel says which book and entry.
 */
export async function loreProposalAppliedFromPanel(setup: { options: EvaluatingHandle; panel: EvaluatingHandle; page: EvaluatingHandle; fixtures: FixtureServer; model: ScriptedModelServer }): Promise<void> {
  const { options, panel, page, fixtures, model } = setup;
  await writeSettings(options, scenarioSettings(fixtures, model));
  const answers = scriptLoreTurn(model);
  await waitForFixtureReady(page);
  // Retinue's page hook follows the page's generations once SillyTavern's context is there.
  await waitUntil(
    () => evaluateIn(page, () => ((window as unknown as { fixture: { listenerCount(type: string): number } }).fixture.listenerCount('world_info_activated') > 0 ? true : undefined), undefined),
    { description: "the page hook listening to the page's world_info_activated" },
  );

  const turn = await sendFixtureMessage(page, 'Mira raises her hand: the scar is gone.');

  expect(turn.status).toBe('done');
  expect(answers.get('lore_list_activated')).toContain('- Mira #0 — Mira (keys: Mira): Mira is a courier from the northern clans.');
  expect(answers.get('lore_search')).toContain('- Eldoria #3 — The silver key (keys: silver key, vault)');
  expect(answers.get('lore_propose')).toContain('Nothing was written');
  expect(await pageLore(page)).toEqual([]);

  const card = await waitUntil(
    () => evaluateIn(panel, () => document.querySelector('.lore-proposal')?.textContent ?? undefined, undefined),
    { description: 'the lore proposal in the side panel', timeoutMs: 20_000 },
  );
  expect(card).toContain('“Mira”, entry #0');
  expect(card).toContain('- Mira is a courier from the northern clans. She has a scar on her left hand.');
  expect(card).toContain(`+ ${PROPOSED_CONTENT}`);
  expect(await pageLore(page)).toEqual([]);

  expect(await clickByLabel(panel, 'Apply to the lorebook')).toBe(true);

  const outcome = await waitUntil(
    () => evaluateIn(panel, () => document.querySelector('.lore-outcome')?.textContent ?? undefined, undefined),
    { description: 'the applied proposal, saying where it was written', timeoutMs: 20_000 },
  );
  expect(outcome).toBe('Applied: written to the lorebook “Mira”, entry #0.');
  const saves = await pageLore(page);
  expect(saves.map((save) => [save.name, save.immediately, save.data.entries['0']?.key, save.data.entries['0']?.content])).toEqual([['Mira', true, ['Mira', 'courier'], PROPOSED_CONTENT]]);
}
