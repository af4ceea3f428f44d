import { expect } from 'vitest';
import { builtInProfiles } from '../../src/profiles/built-in-profiles';
import { messageText, type ScriptedModelServer, type ScriptedRequest, type ScriptedTurn } from '../support/scripted-model-server';
import { scenarioSettings } from './chat-turn-scenarios';
import { clickByLabel } from './review-scenarios';
import { evaluateIn, waitUntil, type EvaluatingHandle } from './support/evaluating-handle';
import { sendFixtureMessage, waitForFixtureReady } from './support/fixture-pages';
import type { FixtureServer } from './support/fixture-server';
import { readRunStore } from './support/settings';
import { switchSitesOn } from './support/site-setup';

/**
 * A result held for review that lands after the deadline reply, for Chromium and Firefox alike: the
 * first turn replies at the deadline; the critic's result then waits for review after its run ended;
 * the side panel still offers it, and the user edits (or discards) it there. The next turn of the
 * chat carries the edited text in "Since your last reply"; a discarded one never reaches the model.
 */

const HELD_FINDING = 'The keeper hid a second key under the stairs.';
export const AFTER_REPLY_EDIT = 'Edited after the reply: the key is in the keeper’s boot.';
const FIRST_USER_MESSAGE = 'Mara waits at the lighthouse door.';
const REPLY_DEADLINE_MS = 3_000;

/** The primary site with a reply deadline, and the built-in scene critic asking for review. */
export async function switchOnReviewAfterReplySite(options: EvaluatingHandle, fixtures: FixtureServer, model: ScriptedModelServer): Promise<void> {
  const critic = builtInProfiles.find((profile) => profile.id === 'scene-critic');
  if (!critic) throw new Error('the built-in scene critic is missing');
  await switchSitesOn(options, [fixtures.origins.primary], {
    ...scenarioSettings(fixtures, model),
    profiles: [{ ...critic, review: 'ask' }],
    sites: [{ origin: fixtures.origins.primary, enabled: true, adapter: 'auto', replyDeadlineMs: REPLY_DEADLINE_MS }],
  });
}

const isCritic = (request: ScriptedRequest): boolean => request.toolNames.includes('task_return') && request.systemText.includes('You are a scene critic');
const isRoot = (request: ScriptedRequest): boolean => !request.toolNames.includes('task_return');
const called = (request: ScriptedRequest, tool: string): boolean =>
  request.body.messages.some((message) => message.role === 'assistant' && (message.tool_calls ?? []).some((call) => call.type === 'function' && call.function.name === tool));

function script(model: ScriptedModelServer, released: Promise<void>): void {
  model.reset();
  model.script(async (request) => {
    if (!isCritic(request)) return undefined;
    await released;
    return { toolCalls: [{ name: 'task_return', arguments: { summary: HELD_FINDING, status: 'completed' } }] };
  });
  model.script((request): ScriptedTurn | undefined => {
    if (!isRoot(request)) return undefined;
    const lastUser = request.body.messages.filter((message) => message.role === 'user').at(-1);
    if (!lastUser || !messageText(lastUser).includes(FIRST_USER_MESSAGE)) return { content: request.systemText.includes(AFTER_REPLY_EDIT) ? 'She checks the boot.' : 'On it goes.' };
    if (request.toolNames.includes('agent_delegate') && !called(request, 'agent_delegate')) {
      return { toolCalls: [{ name: 'agent_delegate', arguments: { agentId: 'scene-critic', task: { title: 'Critique the door', objective: 'Critique the door scene.' } } }] };
    }
    if (request.toolNames.includes('agent_await') && !called(request, 'agent_await')) return { toolCalls: [{ name: 'agent_await', arguments: {} }] };
    return { content: 'The door stays shut.' };
  });
}

/** Runs the two turns; `decision` is what the user does in the side panel after the first run ended. */
export async function runReviewAfterTheReply(setup: { page: EvaluatingHandle; panel: EvaluatingHandle; options: EvaluatingHandle; model: ScriptedModelServer; decision: 'edit' | 'discard' }): Promise<void> {
  const { page, panel, options, model, decision } = setup;
  let release: () => void = () => undefined;
  script(model, new Promise<void>((resolve) => (release = resolve)));
  await waitForFixtureReady(page);
  expect(await sendFixtureMessage(page, FIRST_USER_MESSAGE)).toMatchObject({ status: 'done', reply: 'The door stays shut.' });
  release();

  // The run ends with the result still waiting; the side panel keeps it decidable for the next turn.
  await waitUntil(
    async () => {
      const { runs, tasks } = await readRunStore(options);
      return runs[0]?.status === 'completed' && tasks.some((task) => (task.review as { state?: string } | undefined)?.state === 'awaiting') ? true : undefined;
    },
    { description: 'the first run ended with its result waiting for review', timeoutMs: 30_000 },
  );
  const intro = await waitUntil(
    () => evaluateIn(panel, () => (document.querySelector('.review-card')?.textContent?.includes('second key') ? document.querySelector('.review-queue p')?.textContent ?? undefined : undefined), undefined),
    { description: 'the held result in the side panel after the run ended', timeoutMs: 30_000 },
  );
  expect(intro).toContain('reaches the writer with your next message');

  if (decision === 'edit') {
    expect(await clickByLabel(panel, 'Edit the result of')).toBe(true);
    await waitUntil(() => evaluateIn(panel, () => (document.activeElement?.tagName === 'TEXTAREA' ? true : undefined), undefined), { description: 'the edit field' });
    await evaluateIn(
      panel,
      (text: string) => {
        const field = document.activeElement as HTMLTextAreaElement;
        field.value = text;
        field.dispatchEvent(new Event('input', { bubbles: true }));
      },
      AFTER_REPLY_EDIT,
    );
    expect(await clickByLabel(panel, 'Send edited result')).toBe(true);
  } else {
    expect(await clickByLabel(panel, 'Discard the result of')).toBe(true);
  }
  const wanted = decision === 'edit' ? 'edited' : 'discarded';
  await waitUntil(
    async () => ((await readRunStore(options)).tasks.some((task) => (task.review as { state?: string } | undefined)?.state === wanted) ? true : undefined),
    { description: `the result ${wanted} on the stored task`, timeoutMs: 20_000 },
  );

  const before = model.requests.length;
  const second = await sendFixtureMessage(page, 'She steps inside.');
  const firstRequest = model.requests.slice(before).find(isRoot);
  expect(firstRequest?.systemText).not.toContain(HELD_FINDING);
  if (decision === 'edit') {
    expect(second).toMatchObject({ status: 'done', reply: 'She checks the boot.' });
    expect(firstRequest?.systemText).toContain('## Since your last reply');
    expect(firstRequest?.systemText).toContain(AFTER_REPLY_EDIT);
  } else {
    expect(second).toMatchObject({ status: 'done', reply: 'On it goes.' });
    for (const request of model.requests) expect(JSON.stringify(request.body.messages)).not.toContain(HELD_FINDING.slice(0, 30));
  }
}
