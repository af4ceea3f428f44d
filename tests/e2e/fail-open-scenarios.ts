import { expect } from 'vitest';
import type { ScriptedModelServer, ScriptedRequest } from '../support/scripted-model-server';
import { waitForEndedRuns } from './chat-turn-scenarios';
import { defaultDelegations } from './support/delegating-root-script';
import { evaluateIn, waitUntil, type EvaluatingHandle } from './support/evaluating-handle';
import { sendFixtureMessage, waitForFixtureReady, type FixtureTurn } from './support/fixture-pages';
import { readRunStore } from './support/settings';

/**
 * Fail open in a browser (DESIGN.md §13): an endpoint that refuses everything Retinue adds still gives
 * the page its own plain reply, and the side panel says why. Shared by the Chromium and Firefox files.
 */

export const PLAIN_REPLY = 'Mara knocks twice. (the plain reply of the page’s own model)';
const REFUSAL = 'tools are not supported for this model';

/** A request carrying anything of Retinue's: its tools, its instructions, its agents' names. */
export function addsRetinue(request: ScriptedRequest): boolean {
  return request.toolNames.length > 0 || /retinue|agent_/i.test(request.allText);
}

/** The endpoint refuses every request that carries Retinue's additions (400) and answers the rest plainly. */
export function scriptRefusingEndpoint(model: ScriptedModelServer): void {
  model.reset();
  model.script((request) => (addsRetinue(request) ? { fault: 'status', status: 400, message: REFUSAL } : { content: PLAIN_REPLY }));
}

/**
 * The root delegates one task (so progress reaches the page), then its next call is refused: the
 * page's own answer must carry on in the stream that already started.
 */
export function scriptRefusalAfterProgress(model: ScriptedModelServer): void {
  model.reset();
  const critic = defaultDelegations[1]!;
  model.script((request) =>
    request.toolNames.includes('task_return') ? { toolCalls: [{ name: 'task_return', arguments: { summary: critic.finding, status: 'completed' } }] } : undefined,
  );
  model.script((request) => {
    if (!addsRetinue(request)) return { content: PLAIN_REPLY };
    if (request.toolResultCount > 0) return { fault: 'status', status: 400, message: REFUSAL };
    return { toolCalls: [{ name: 'agent_delegate', arguments: { agentId: critic.agentId, task: { title: critic.title, objective: critic.objective } } }] };
  });
}

/** Sends one message on a loaded fixture page and checks the page got the plain reply, its request sent once. */
export async function expectPlainReply(options: { page: EvaluatingHandle; model: ScriptedModelServer; store: EvaluatingHandle }): Promise<FixtureTurn> {
  const before = (await readRunStore(options.store)).runs.length;
  await waitForFixtureReady(options.page);
  const turn = await sendFixtureMessage(options.page, 'Mara reaches the lighthouse.');
  expect(turn).toMatchObject({ status: 'done', reply: PLAIN_REPLY });
  expect(options.model.requests.filter((request) => !addsRetinue(request))).toHaveLength(1);
  expect(options.model.requests.some(addsRetinue)).toBe(true);
  const { runs } = await waitForEndedRuns(options.store, before + 1);
  expect(runs.at(-1)).toMatchObject({ status: 'failed', fallback: { code: 'tools-refused' } });
  return turn;
}

/** Waits for the side panel's run view to say the page's own model answered, and why. */
export async function readSidePanelFallback(panel: EvaluatingHandle): Promise<{ title: string; reason: string }> {
  return waitUntil(
    async () => {
      const found = await evaluateIn(panel, () => {
        const note = document.querySelector('.run-fallback');
        return note ? { title: note.querySelector('.run-fallback-title')?.textContent ?? '', reason: note.querySelector('.muted')?.textContent ?? '' } : undefined;
      }, undefined);
      return found ?? undefined;
    },
    { description: "the side panel's fallback note", timeoutMs: 20_000 },
  );
}
