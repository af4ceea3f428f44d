import { expect } from 'vitest';
import { messageText, type ScriptedModelServer, type ScriptedRequest, type ScriptedTurn } from '../support/scripted-model-server';
import { evaluateIn, waitUntil, type EvaluatingHandle } from './support/evaluating-handle';
import { sendFixtureMessage, waitForFixtureReady } from './support/fixture-pages';

/**
 * Agent memory across swipes on the SillyTavern fixture page, for Chromium and Firefox alike (issue 25
 * item 1): each turn the keeper (the root, or a tracker the root delegates every turn) reads
 * `memory/state.md`, writes its own state there and says what it read and wrote, and the reply carries
 * that, so the page's reply says which memory the turn started from. After a swipe, going
 * on from either swipe (swiping back and forth) reads that swipe's state, never its sibling's; the side
 * panel shows the memory after the reply on screen.
 */

const isRoot = (request: ScriptedRequest): boolean => !request.toolNames.includes('task_return');
const isTracker = (request: ScriptedRequest): boolean => request.toolNames.includes('task_return') && request.systemText.includes('You are a continuity checker');

function callArguments(request: ScriptedRequest, tool: string): Record<string, unknown> | undefined {
  for (const message of request.body.messages) {
    if (message.role !== 'assistant') continue;
    for (const call of message.tool_calls ?? []) {
      if (call.type === 'function' && call.function.name === tool) return JSON.parse(call.function.arguments) as Record<string, unknown>;
    }
  }
  return undefined;
}

/** Who keeps memory/state.md: the root itself, or a tracker (the built-in continuity checker) it delegates every turn. */
export type MemoryKeeper = 'root' | 'tracker';

/**
 * The keeper's steps: read memory/state.md, write `State <n>: <line>`, then say `Read [..] wrote [..]`
 * (the root as its reply; the tracker as its result, which the root's reply quotes).
 */
function keeperTurn(request: ScriptedRequest, line: string, nextWrite: () => number): { toolCalls: ScriptedTurn['toolCalls'] } | { said: string } {
  if (!callArguments(request, 'workspace_read')) return { toolCalls: [{ name: 'workspace_read', arguments: { path: 'memory/state.md' } }] };
  const written = callArguments(request, 'workspace_write');
  if (!written) return { toolCalls: [{ name: 'workspace_write', arguments: { path: 'memory/state.md', content: `State ${nextWrite()}: ${line}` } }] };
  const readResult = request.body.messages.find((message) => message.role === 'tool');
  const read = readResult ? messageText(readResult) : '';
  return { said: `Read [${read.startsWith('There is no file') ? 'nothing' : read}] wrote [${String(written.content)}]` };
}

function lastUserLine(request: ScriptedRequest): string {
  const lastUser = request.body.messages.filter((message) => message.role === 'user').at(-1);
  return lastUser ? messageText(lastUser) : '';
}

function scriptMemoryKeeper(model: ScriptedModelServer, keeper: MemoryKeeper): void {
  model.reset();
  let writes = 0;
  const nextWrite = () => (writes += 1);
  let trackerLine = '';
  model.script((request): ScriptedTurn | undefined => {
    if (keeper !== 'tracker' || !isTracker(request)) return undefined;
    const step = keeperTurn(request, trackerLine, nextWrite);
    if ('said' in step) return { toolCalls: [{ name: 'task_return', arguments: { summary: step.said, status: 'completed' } }] };
    return step;
  });
  model.script((request): ScriptedTurn | undefined => {
    if (!isRoot(request)) return undefined;
    if (keeper === 'root') {
      const step = keeperTurn(request, lastUserLine(request), nextWrite);
      return 'said' in step ? { content: step.said } : step;
    }
    if (!callArguments(request, 'agent_delegate')) {
      trackerLine = lastUserLine(request);
      return { toolCalls: [{ name: 'agent_delegate', arguments: { agentId: 'continuity-checker', task: { title: 'Track the scene', objective: 'Keep the scene state.' } } }] };
    }
    if (!callArguments(request, 'agent_await')) return { toolCalls: [{ name: 'agent_await', arguments: { tasks: ['continuity-checker'] } }] };
    const awaited = [...request.body.messages].reverse().find((message) => message.role === 'tool');
    const text = awaited ? messageText(awaited) : '';
    const start = text.indexOf('Read [');
    return { content: start === -1 ? `No tracker result: ${text.slice(0, 200)}` : (text.slice(start).split('\n')[0] ?? '') };
  });
}

interface FixtureWindow {
  fixture: { chat: Array<{ is_user: boolean; mes: string; swipes?: string[]; swipe_id?: number }> };
}

/** Shows swipe `index` of the last reply, as SillyTavern's swipe arrows do. */
function showSwipe(page: EvaluatingHandle, index: number): Promise<void> {
  return evaluateIn(page, (wanted: number) => {
    const last = (window as unknown as FixtureWindow).fixture.chat.at(-1);
    if (!last || last.is_user || !last.swipes?.[wanted]) throw new Error(`the last reply has no swipe ${wanted}`);
    last.swipe_id = wanted;
    last.mes = last.swipes[wanted];
  }, index);
}

/** Deletes the last `count` messages of the chat, as SillyTavern's delete does. */
function deleteLast(page: EvaluatingHandle, count: number): Promise<void> {
  return evaluateIn(page, (n: number) => void (window as unknown as FixtureWindow).fixture.chat.splice(-n, n), count);
}

async function send(page: EvaluatingHandle, text: string, type?: string): Promise<string> {
  const turn = await sendFixtureMessage(page, text, type);
  expect(turn.status).toBe('done');
  return turn.reply;
}

/** The side panel's "Memory after this reply" text, once it shows `expected`. */
async function panelMemoryShows(panel: EvaluatingHandle, expected: string): Promise<string> {
  return waitUntil(
    () =>
      evaluateIn(panel, (wanted: string) => {
        const text = document.querySelector('.agent-memory')?.textContent ?? '';
        return text.includes(wanted) ? text : undefined;
      }, expected),
    { description: `the side panel's memory showing ${expected}`, timeoutMs: 15_000 },
  );
}

/** The swipe scenario on an open SillyTavern fixture page, with the side panel open on its site. */
export async function runMemoryAcrossSwipes(setup: { page: EvaluatingHandle; panel: EvaluatingHandle; model: ScriptedModelServer; keeper: MemoryKeeper }): Promise<void> {
  const { page, panel, model } = setup;
  scriptMemoryKeeper(model, setup.keeper);
  await waitForFixtureReady(page);

  expect(await send(page, 'Mara reaches the lighthouse.')).toBe('Read [nothing] wrote [State 1: Mara reaches the lighthouse.]');
  expect(await send(page, 'She climbs the stairs.')).toBe('Read [State 1: Mara reaches the lighthouse.] wrote [State 2: She climbs the stairs.]');
  // A swipe answers the same message: it starts from the memory before it, not from the first swipe's.
  expect(await send(page, '', 'swipe')).toBe('Read [State 1: Mara reaches the lighthouse.] wrote [State 3: She climbs the stairs.]');
  await panelMemoryShows(panel, 'State 3: She climbs the stairs.');

  // Back to the first swipe, and on from there: its own state.
  await showSwipe(page, 0);
  expect(await send(page, 'She opens the door.')).toBe('Read [State 2: She climbs the stairs.] wrote [State 4: She opens the door.]');
  await panelMemoryShows(panel, 'State 4: She opens the door.');

  // Forth to the second swipe (the later turn deleted), and on from there: the second swipe's state.
  await deleteLast(page, 2);
  await showSwipe(page, 1);
  expect(await send(page, 'She opens the door.')).toBe('Read [State 3: She climbs the stairs.] wrote [State 5: She opens the door.]');
  const shown = await panelMemoryShows(panel, 'State 5: She opens the door.');
  expect(shown).not.toContain('State 4');
}
