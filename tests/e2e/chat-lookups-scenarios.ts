import { expect } from 'vitest';
import { messageText, type ScriptedModelServer, type ScriptedRequest, type ScriptedTurn } from '../support/scripted-model-server';
import { evaluateIn, waitUntil, type EvaluatingHandle } from './support/evaluating-handle';
import { sendFixtureMessage, waitForFixtureReady } from './support/fixture-pages';

/**
 * On the SillyTavern-shaped page, for Chromium and Firefox alike: the root asks the built-in
 * continuity checker, which searches the chat, reads the message it found and cites it; the side
 * panel's task row, opened, lists what it looked up.
 */

export const USER_MESSAGE = 'Mara hangs the brass lantern by the lighthouse door.';
export const CHECKER_FINDING = 'Established in #2: the brass lantern hangs by the door.';
/** What the side panel shows under "What it looked up", in order. */
export const EXPECTED_LOOKUPS = ['Searched the chat for “brass lantern”: 1 found (#2)', 'Read messages #2'];

function toolsCalled(request: ScriptedRequest): string[] {
  return request.body.messages.flatMap((message) =>
    message.role === 'assistant' && message.tool_calls ? message.tool_calls.flatMap((call) => (call.type === 'function' ? [call.function.name] : [])) : [],
  );
}

function toolResults(request: ScriptedRequest): string[] {
  return request.body.messages.filter((message) => message.role === 'tool').map((message) => messageText(message));
}

/** The checker: search, read what it found, return a finding that cites the message number. */
function checkerTurn(request: ScriptedRequest): ScriptedTurn {
  const called = toolsCalled(request);
  if (!called.includes('chat_search')) return { toolCalls: [{ name: 'chat_search', arguments: { query: 'brass lantern' } }] };
  if (!called.includes('chat_read_messages')) return { toolCalls: [{ name: 'chat_read_messages', arguments: { from: 2 } }] };
  const read = toolResults(request).at(-1) ?? '';
  const summary = read.includes(USER_MESSAGE) ? CHECKER_FINDING : 'The chat did not say.';
  return { toolCalls: [{ name: 'task_return', arguments: { summary, status: 'completed' } }] };
}

/** The root: delegate the check, await it, reply with what came back. */
function rootTurn(request: ScriptedRequest): ScriptedTurn {
  const called = toolsCalled(request);
  if (!called.includes('agent_delegate')) {
    return { toolCalls: [{ name: 'agent_delegate', arguments: { agentId: 'continuity-checker', task: { title: 'Check the lantern', objective: 'Where is the lantern?' } } }] };
  }
  if (!called.includes('agent_await')) return { toolCalls: [{ name: 'agent_await', arguments: {} }] };
  return { content: toolResults(request).join('\n').includes(CHECKER_FINDING) ? `The lantern glows. (${CHECKER_FINDING})` : 'The lantern glows.' };
}

export function scriptLookupRun(model: ScriptedModelServer): void {
  model.reset();
  model.script((request) => (request.toolNames.includes('task_return') && request.systemText.includes('You are a continuity checker') ? checkerTurn(request) : undefined));
  model.script((request) => (request.toolNames.includes('agent_delegate') && !request.toolNames.includes('task_return') ? rootTurn(request) : undefined));
}

/** One turn on a loaded SillyTavern fixture page; the reply carries the checker's cited finding. */
export async function runLookupTurn(page: EvaluatingHandle, model: ScriptedModelServer): Promise<void> {
  scriptLookupRun(model);
  await waitForFixtureReady(page);
  const turn = await sendFixtureMessage(page, USER_MESSAGE);
  expect(turn.status).toBe('done');
  expect(turn.reply).toContain(CHECKER_FINDING);
}

/** Opens the continuity checker's task row in the side panel and reads what it looked up. */
export async function readShownLookups(panel: EvaluatingHandle): Promise<string[]> {
  return waitUntil(
    async () => {
      const shown = await evaluateIn<string[] | undefined, undefined>(panel, () => {
        const row = Array.from(document.querySelectorAll('li.task-row')).find((item) => item.querySelector('.task-agent')?.textContent === 'continuity-checker');
        if (!row || row.getAttribute('data-status') !== 'completed') return undefined;
        const toggle = row.querySelector<HTMLButtonElement>('.task-toggle');
        if (toggle?.getAttribute('aria-expanded') !== 'true') toggle?.click();
        const section = row.querySelector('section.task-lookups');
        if (!section || section.getAttribute('aria-label') !== 'What it looked up') return undefined;
        return Array.from(section.querySelectorAll('li')).map((item) => item.textContent ?? '');
      }, undefined);
      return shown && shown.length >= EXPECTED_LOOKUPS.length ? shown : undefined;
    },
    { description: 'the continuity checker’s lookups in its opened task row', timeoutMs: 20_000 },
  );
}
