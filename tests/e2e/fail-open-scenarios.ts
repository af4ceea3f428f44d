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

/** A request carrying anything of Retinue's: its tools (native or written into the prompt), its instructions, its agents' names. */
export function addsRetinue(request: ScriptedRequest): boolean {
  return request.toolNames.length > 0 || /retinue|agent_|<tool_call>/i.test(request.allText);
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
  // An earlier refusal may have switched this endpoint to the prompted protocol (tools in the system
  // text, results as `<tool_response>` messages): both forms are told apart here.
  const offers = (request: ScriptedRequest, tool: string) => request.toolNames.includes(tool) || request.systemText.includes(`${tool}(`);
  model.script((request) =>
    offers(request, 'task_return') ? { toolCalls: [{ name: 'task_return', arguments: { summary: critic.finding, status: 'completed' } }] } : undefined,
  );
  model.script((request) => {
    if (!addsRetinue(request)) return { content: PLAIN_REPLY };
    if (request.toolResultCount > 0 || request.allText.includes('<tool_response name=')) return { fault: 'status', status: 400, message: REFUSAL };
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

/** A phrase of the built-in root's instructions, which tells its requests apart. */
const ROOT_MARKER = "You write this turn's reply.";

/**
 * An endpoint that refuses `tools` and whose model writes its calls as Hermes `<tool_call>` text: the
 * turn is still delegated, through the prompted protocol. Sends one message on a loaded fixture page
 * and checks the reply carries the helper's finding and no call text, every answered request went
 * without a `tools` field, and the run completed. The endpoint takes tools again afterwards.
 */
export async function expectPromptedDelegation(options: { page: EvaluatingHandle; model: ScriptedModelServer; store: EvaluatingHandle }): Promise<void> {
  const { model } = options;
  const critic = defaultDelegations[1]!;
  model.reset();
  model.modes.refuseTools = true;
  model.modes.textCalls = 'hermes';
  try {
    model.queue((request) => request.systemText.includes(critic.systemMarker), {
      toolCalls: [{ name: 'task_return', arguments: { summary: critic.finding, status: 'completed' } }],
    });
    model.queue(
      (request) => request.systemText.includes(ROOT_MARKER),
      { toolCalls: [{ name: 'agent_delegate', arguments: { agentId: critic.agentId, task: { title: critic.title, objective: critic.objective } } }] },
      { toolCalls: [{ name: 'agent_await', arguments: { tasks: [critic.agentId] } }] },
      (request) => ({ content: request.allText.includes(critic.finding) ? `The door opens. ${critic.finding}` : 'No finding reached the writer.' }),
    );
    const before = (await readRunStore(options.store)).runs.length;
    const turn = await sendFixtureMessage(options.page, 'Mara reaches the lighthouse.');

    expect(turn).toMatchObject({ status: 'done', reply: `The door opens. ${critic.finding}` });
    const answered = model.requests.filter((request) => request.outcome === 'answered');
    expect(answered.length).toBe(4);
    expect(answered.every((request) => request.body.tools === undefined)).toBe(true);
    const { runs, tasks } = await waitForEndedRuns(options.store, before + 1);
    const run = runs.at(-1);
    expect(run).toMatchObject({ status: 'completed' });
    expect(tasks.filter((task) => task.runId === run?.id).map((task) => [task.workspaceKey, task.status])).toEqual([[critic.agentId, 'completed']]);
  } finally {
    model.modes.refuseTools = false;
    delete model.modes.textCalls;
  }
}

/** The fixture pages and query strings every browser checks fail open on: both adapters, streamed and JSON. */
export const FAIL_OPEN_PAGES: Array<[string, Record<string, string>]> = [
  ['/openai-chat/', {}],
  ['/openai-chat/', { stream: '0' }],
  ['/sillytavern/', { model: 'scripted-model' }],
  ['/sillytavern/', { model: 'scripted-model', stream: '0' }],
];

/** The fixture pages every browser checks the prompted protocol on: both adapters. */
export const PROMPTED_PAGES: Array<[string, Record<string, string>]> = [
  ['/openai-chat/', {}],
  ['/sillytavern/', { model: 'scripted-model' }],
];

/**
 * The endpoint refuses everything Retinue adds: one message on a loaded fixture page gets the page's
 * own plain reply, and the side panel's run says the page's model answered because tools were refused.
 */
export async function expectFallbackWithReason(options: { page: EvaluatingHandle; model: ScriptedModelServer; store: EvaluatingHandle; panel: EvaluatingHandle }): Promise<void> {
  scriptRefusingEndpoint(options.model);
  await expectPlainReply(options);
  const note = await readSidePanelFallback(options.panel);
  expect(note.title).toBe("Answered by the page's own model: the endpoint refuses tool calls");
  expect(note.reason).toContain(REFUSAL);
}

/** The fixture pages every browser checks a strict chat template on: both adapters, streamed and JSON. */
export const STRICT_TEMPLATE_PAGES: Array<[string, Record<string, string>]> = [
  ['/openai-chat/', {}],
  ['/sillytavern/', { model: 'scripted-model', stream: '0' }],
];

const HISTORY_REFUSED_TITLE = "Answered by the page's own model: the model's chat template refuses the order of Retinue's messages";

/**
 * A strict chat template (Gemma's on vLLM): the root delegates natively, then its next call, which
 * carries `tool` messages, is refused with "Conversation roles must alternate…". The page still gets
 * its own plain reply, and the side panel names the template as the reason. Start from native tools.
 */
export async function expectHistoryRefusedFallback(options: { page: EvaluatingHandle; model: ScriptedModelServer; store: EvaluatingHandle; panel: EvaluatingHandle }): Promise<void> {
  const { model } = options;
  const critic = defaultDelegations[1]!;
  model.reset();
  model.modes.strictRoles = true;
  try {
    model.queue((request) => request.systemText.includes(critic.systemMarker), {
      toolCalls: [{ name: 'task_return', arguments: { summary: critic.finding, status: 'completed' } }],
    });
    model.queue((request) => request.systemText.includes(ROOT_MARKER), {
      toolCalls: [{ name: 'agent_delegate', arguments: { agentId: critic.agentId, task: { title: critic.title, objective: critic.objective } } }],
    });
    model.script((request) => (addsRetinue(request) ? undefined : { content: PLAIN_REPLY }));
    const before = (await readRunStore(options.store)).runs.length;

    const turn = await sendFixtureMessage(options.page, 'Mara reaches the lighthouse.');

    expect(turn).toMatchObject({ status: 'done', reply: PLAIN_REPLY });
    expect(model.requests.filter((request) => !addsRetinue(request))).toHaveLength(1);
    const { runs } = await waitForEndedRuns(options.store, before + 1);
    expect(runs.at(-1)).toMatchObject({ status: 'failed', fallback: { code: 'history-refused' } });
    const titles = await waitUntil(
      async () => {
        const found = await evaluateIn(options.panel, () => [...document.querySelectorAll('.run-fallback-title')].map((title) => title.textContent ?? ''), undefined);
        return found.includes(HISTORY_REFUSED_TITLE) ? found : undefined;
      },
      { description: 'the side panel naming the chat template', timeoutMs: 20_000 },
    );
    expect(titles).toContain(HISTORY_REFUSED_TITLE);
  } finally {
    model.modes.strictRoles = false;
  }
}
