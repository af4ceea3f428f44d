import { expect } from 'vitest';
import { builtInProfiles } from '../../src/profiles/built-in-profiles';
import { messageText, type ScriptedModelServer } from '../support/scripted-model-server';
import { scenarioSettings } from './chat-turn-scenarios';
import { evaluateIn, waitUntil, type EvaluatingHandle } from './support/evaluating-handle';
import { startFixtureMessage, waitForFixtureReady, waitForFixtureStatus } from './support/fixture-pages';
import type { FixtureServer } from './support/fixture-server';
import { writeSettings } from './support/settings';

/** What the scene critic first writes, and what the user writes over it in the side panel. */
export const REVIEW_TEXTS = {
  original: 'Critique: the keeper is too calm; the storm should frighten him.',
  edited: 'Edited in the side panel: keep the keeper calm, he has seen worse storms.',
} as const;

/** The scenario settings with the built-in scene critic set to ask for review of its results. */
async function askForReview(options: EvaluatingHandle, fixtures: FixtureServer, model: ScriptedModelServer): Promise<void> {
  const critic = builtInProfiles.find((profile) => profile.id === 'scene-critic');
  if (!critic) throw new Error('the built-in scene critic is missing');
  await writeSettings(options, { ...scenarioSettings(fixtures, model), profiles: [{ ...critic, review: 'ask' }] });
}

/**
 * A root that delegates one critique, awaits it, and replies with what its await handed over; a
 * scene critic that returns {@link REVIEW_TEXTS.original} at once.
 */
function scriptReviewedTurn(model: ScriptedModelServer): void {
  model.reset();
  model.script((request) => {
    if (!request.toolNames.includes('task_return') || !request.systemText.includes('You are a scene critic')) return undefined;
    return { toolCalls: [{ name: 'task_return', arguments: { summary: REVIEW_TEXTS.original, status: 'completed' } }] };
  });
  model.script((request) => {
    if (!request.toolNames.includes('agent_delegate')) return undefined;
    const toolResults = request.body.messages.filter((message) => message.role === 'tool').map((message) => messageText(message));
    if (toolResults.length === 0) {
      return { toolCalls: [{ name: 'agent_delegate', arguments: { agentId: 'scene-critic', task: { title: 'Critique the lighthouse scene', objective: 'Critique it.' } } }] };
    }
    if (toolResults.length === 1) return { toolCalls: [{ name: 'agent_await', arguments: { mode: 'allCompleted' } }] };
    return { content: `The keeper lights the lamp.\n\nFrom the retinue:\n${toolResults.at(-1) ?? ''}` };
  });
}

/** Clicks the button whose accessible name (aria-label) starts with `label` in the side panel page. */
export function clickByLabel(panel: EvaluatingHandle, label: string): Promise<boolean> {
  return evaluateIn(
    panel,
    (prefix: string) => {
      const button = Array.from(document.querySelectorAll('button')).find((candidate) => (candidate.getAttribute('aria-label') ?? candidate.textContent ?? '').startsWith(prefix));
      button?.click();
      return button !== undefined;
    },
    label,
  );
}

/**
 * One chat turn whose delegated result waits for review: the side panel (an extension page showing
 * the primary origin) shows it with Approve, Edit and Discard; the user edits it; the page's reply
 * carries the edited text, marked as edited by the user, and the task row says so.
 */
export async function runEditedReviewTurn(setup: {
  options: EvaluatingHandle;
  panel: EvaluatingHandle;
  page: EvaluatingHandle;
  fixtures: FixtureServer;
  model: ScriptedModelServer;
  /** Called while the result is held: with its buttons shown, then with the edit field open (Chromium runs axe here). */
  whileHeld?: (stage: 'buttons' | 'editing') => Promise<void>;
}): Promise<void> {
  const { options, panel, page, fixtures, model, whileHeld } = setup;
  await askForReview(options, fixtures, model);
  scriptReviewedTurn(model);
  await waitForFixtureReady(page);
  await startFixtureMessage(page, 'Mara knocks at the lighthouse door.');

  const card = await waitUntil(
    () =>
      evaluateIn(panel, () => {
        const shown = document.querySelector('.review-card');
        const buttons = Array.from(shown?.querySelectorAll('button') ?? []).map((button) => button.textContent);
        return shown?.textContent?.includes('the storm should frighten him') ? { buttons, heading: document.getElementById('review-queue-title')?.textContent } : undefined;
      }, undefined),
    { description: 'the held result in the side panel, with its buttons', timeoutMs: 30_000 },
  );
  expect(card.buttons).toEqual(['Approve', 'Edit', 'Discard']);
  expect(card.heading).toBe('Waiting for your review (1)');
  // The page is still waiting: the writer has not had the result.
  expect((await evaluateIn(page, () => (window as unknown as { fixture: { status: string } }).fixture.status, undefined))).toBe('generating');

  await whileHeld?.('buttons');

  expect(await clickByLabel(panel, 'Edit the result of')).toBe(true);
  const focused = await waitUntil(
    () => evaluateIn(panel, () => (document.activeElement?.tagName === 'TEXTAREA' ? (document.activeElement as HTMLTextAreaElement).value : undefined), undefined),
    { description: 'the edit field, focused and filled with the result' },
  );
  expect(focused).toContain('the storm should frighten him');
  await evaluateIn(
    panel,
    (text: string) => {
      const field = document.activeElement as HTMLTextAreaElement;
      field.value = text;
      field.dispatchEvent(new Event('input', { bubbles: true }));
    },
    REVIEW_TEXTS.edited,
  );
  await whileHeld?.('editing');
  expect(await clickByLabel(panel, 'Send edited result')).toBe(true);

  const state = await waitForFixtureStatus(page, 'done');
  expect(state.lastReply).toContain(REVIEW_TEXTS.edited);
  expect(state.lastReply).toContain('edited by the user');
  expect(state.lastReply).not.toContain('the storm should frighten him');
  expect(state.lastReasoning).toContain('result waits for your review');

  // The row says "Waiting for your review" until the panel re-reads the task after the decision.
  const mark = await waitUntil(
    async () => {
      const shown = await evaluateIn(panel, () => document.querySelector('.task-row .review-mark')?.textContent ?? undefined, undefined);
      return shown === 'Edited by you' ? shown : undefined;
    },
    { description: 'the task row marked "Edited by you"', timeoutMs: 20_000 },
  );
  expect(mark).toBe('Edited by you');
}
