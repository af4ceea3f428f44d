import { expect } from 'vitest';
import { messageText, type ScriptedModelServer, type ScriptedRequest } from '../support/scripted-model-server';
import { switchOnPrimarySite } from './chat-turn-scenarios';
import { evaluateIn, waitUntil, type EvaluatingHandle } from './support/evaluating-handle';
import { startFixtureMessage, waitForFixtureReady, waitForFixtureStatus } from './support/fixture-pages';
import type { FixtureServer } from './support/fixture-server';

/**
 * A note from the side panel that changes what a running helper returns (issue 25 item 3), for
 * Chromium and Firefox alike: the root delegates a scene critique and awaits it; the critic's first
 * call is held until the user sent it a note in the side panel; its next request carries "Note from
 * the user: …", and what it returns (and so the page's reply) follows the note. The note never
 * reaches the page's chat or the writer's requests. The timeline marks the note on the helper's bar,
 * applied at its second call.
 */

const NOTE = 'the keeper is left-handed';
const GUIDED = 'Guided: the keeper holds the lamp in his left hand.';

const isCritic = (request: ScriptedRequest): boolean => request.toolNames.includes('task_return') && request.systemText.includes('You are a scene critic');
const isRoot = (request: ScriptedRequest): boolean => request.toolNames.includes('agent_delegate');

function scriptGuidedTurn(model: ScriptedModelServer, noteSent: Promise<void>): void {
  model.reset();
  model.script(async (request) => {
    if (!isCritic(request)) return undefined;
    if (request.toolResultCount === 0) {
      await noteSent;
      return { toolCalls: [{ name: 'workspace_list', arguments: {} }] };
    }
    const guided = request.lastMessageText === `Note from the user: ${NOTE}`;
    return { toolCalls: [{ name: 'task_return', arguments: { summary: guided ? GUIDED : 'Unguided: nothing to add.', status: 'completed' } }] };
  });
  model.script((request) => {
    if (!isRoot(request)) return undefined;
    const toolResults = request.body.messages.filter((message) => message.role === 'tool').map((message) => messageText(message));
    if (toolResults.length === 0) {
      return { toolCalls: [{ name: 'agent_delegate', arguments: { agentId: 'scene-critic', task: { title: 'Critique the lighthouse scene', objective: 'Critique it.' } } }] };
    }
    if (toolResults.length === 1) return { toolCalls: [{ name: 'agent_await', arguments: { mode: 'allCompleted' } }] };
    return { content: `The keeper lights the lamp.\n\nFrom the retinue:\n${toolResults.at(-1) ?? ''}` };
  });
}

/**
 * In the side panel: the note mark (waiting or applied) on the timeline row of the task `name`, with
 * its label and role and how many marks the writer's row has. Runs in the page, so it stands alone.
 */
const noteMarkOnBar = (args: { name: string; applied: 'true' | 'false' }) => {
  const row = Array.from(document.querySelectorAll('.timeline-row')).find((candidate) => candidate.querySelector('.timeline-name')?.textContent === args.name);
  const found = row?.querySelector(`.timeline-note[data-applied="${args.applied}"]`);
  if (!found) return undefined;
  return { label: found.getAttribute('aria-label') ?? '', role: found.getAttribute('role'), rootMarks: document.querySelectorAll('.timeline-row[data-bar-id="root"] .timeline-note').length };
};

/** Sends `text` to the task named `taskName` from the side panel's note form. */
async function sendNoteFromPanel(panel: EvaluatingHandle, taskName: string, text: string): Promise<void> {
  await waitUntil(
    () => evaluateIn(panel, (name: string) => Array.from(document.querySelectorAll('.guidance-form option')).some((option) => option.textContent === name) || undefined, taskName),
    { description: `the note form offering ${taskName}`, timeoutMs: 30_000 },
  );
  const sent = await evaluateIn(
    panel,
    (args: { name: string; text: string }) => {
      const select = document.querySelector<HTMLSelectElement>('.guidance-form select');
      const option = Array.from(select?.options ?? []).find((candidate) => candidate.textContent === args.name);
      if (!select || !option) return false;
      select.value = option.value;
      select.dispatchEvent(new Event('input', { bubbles: true }));
      select.dispatchEvent(new Event('change', { bubbles: true }));
      const field = document.querySelector<HTMLTextAreaElement>('.guidance-form textarea');
      if (!field) return false;
      field.value = args.text;
      field.dispatchEvent(new Event('input', { bubbles: true }));
      return true;
    },
    { name: taskName, text },
  );
  expect(sent).toBe(true);
  await waitUntil(
    () => evaluateIn(panel, (name: string) => document.querySelector('.guidance-target')?.textContent === `Note to ${name}` || undefined, taskName),
    { description: 'the note form addressed to the task' },
  );
  const clicked = await evaluateIn(panel, () => {
    const button = Array.from(document.querySelectorAll<HTMLButtonElement>('.guidance-form button')).find((candidate) => candidate.textContent === 'Send note' && !candidate.disabled);
    button?.click();
    return button !== undefined;
  }, undefined);
  expect(clicked).toBe(true);
}

export async function runGuidedTurn(setup: { options: EvaluatingHandle; panel: EvaluatingHandle; page: EvaluatingHandle; fixtures: FixtureServer; model: ScriptedModelServer }): Promise<void> {
  const { options, panel, page, fixtures, model } = setup;
  await switchOnPrimarySite(options, fixtures, model);
  let release: () => void = () => undefined;
  scriptGuidedTurn(model, new Promise<void>((resolve) => (release = resolve)));
  await waitForFixtureReady(page);
  await startFixtureMessage(page, 'Mara knocks at the lighthouse door.');

  await sendNoteFromPanel(panel, 'scene-critic', NOTE);
  // Stored and shown as waiting for the helper's next call, then let its first call end.
  await waitUntil(
    () => evaluateIn(panel, () => document.querySelector('.guidance-note[data-applied="false"]')?.textContent ?? undefined, undefined),
    { description: 'the note listed as waiting', timeoutMs: 20_000 },
  );
  await waitUntil(() => evaluateIn(panel, noteMarkOnBar, { name: 'scene-critic', applied: 'false' }), { description: 'the note marked on the helper’s bar as waiting', timeoutMs: 20_000 });
  release();

  const state = await waitForFixtureStatus(page, 'done');
  expect(state.lastReply).toContain(GUIDED);
  expect(state.lastReply).not.toContain('Note from the user');
  expect(model.requests.filter(isRoot).some((request) => request.allText.includes(NOTE))).toBe(false);
  const applied = await waitUntil(
    () => evaluateIn(panel, () => document.querySelector('.guidance-note[data-applied="true"]')?.textContent ?? undefined, undefined),
    { description: 'the note listed as in its request', timeoutMs: 20_000 },
  );
  expect(applied).toContain(`In its request: ${NOTE}`);
  // The note is a mark on the helper's bar in the timeline, saying it went into its second call.
  const mark = await waitUntil(() => evaluateIn(panel, noteMarkOnBar, { name: 'scene-critic', applied: 'true' }), {
    description: 'the note marked on the helper’s timeline bar as applied',
    timeoutMs: 20_000,
  });
  expect(mark).toMatchObject({ role: 'img', rootMarks: 0 });
  expect(mark.label).toMatch(/^Note sent at \S+, in its request at round 2: /);
  expect(mark.label).toContain(NOTE);
}
