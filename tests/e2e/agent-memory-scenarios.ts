import { expect } from 'vitest';
import { builtInProfiles } from '../../src/profiles/built-in-profiles';
import { messageText, type ScriptedModelServer, type ScriptedRequest, type ScriptedTurn } from '../support/scripted-model-server';
import { evaluateIn, waitUntil, type EvaluatingHandle } from './support/evaluating-handle';
import { sendFixtureMessage, waitForFixtureReady } from './support/fixture-pages';
import type { FixtureServer } from './support/fixture-server';
import { switchSitesOn } from './support/site-setup';
import { scenarioSettings } from './chat-turn-scenarios';

/**
 * Agent memory across swipes on the SillyTavern fixture page, for Chromium and Firefox alike (issue 25
 * item 1): each turn the keeper (the root, a tracker the root delegates every turn, or the same
 * tracker set to run "every turn", started by Retinue before the root's first call) reads
 * `memory/state.md`, writes its own state there and says what it read and wrote, and the reply carries
 * that, so the page's reply says which memory the turn started from. After a swipe, going
 * on from either swipe (swiping back and forth) reads that swipe's state, never its sibling's; the side
 * panel shows the memory after the reply on screen. The every-turn tracker is not run again on a
 * swipe (the ledger holds its result, offered to the root as `earlier-continuity-checker`): its result
 * and its memory carry over to the swipe, so going on from either swipe reads the state it left.
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

/**
 * Who keeps memory/state.md: the root itself, a tracker (the built-in continuity checker) it delegates
 * every turn, or that tracker configured `runs: "every turn"`.
 */
export type MemoryKeeper = 'root' | 'tracker' | 'every-turn tracker';

/** Each keeper the browser tests run the scenario with, and how their test names it. */
export const memoryKeepers: readonly [MemoryKeeper, string][] = [
  ['root', 'the root'],
  ['tracker', 'a tracker delegated every turn'],
  ['every-turn tracker', 'a tracker that runs every turn (its state kept from the first swipe on a swipe)'],
];

/** How the keeper's tracker is set: the built-in continuity checker, for the every-turn keeper run every turn and shown the latest message. */
export async function configureMemoryKeeper(keeper: MemoryKeeper, setup: { options: EvaluatingHandle; fixtures: FixtureServer; model: ScriptedModelServer }): Promise<void> {
  const checker = builtInProfiles.find((profile) => profile.id === 'continuity-checker');
  if (!checker) throw new Error('The built-in continuity checker is missing.');
  const profiles = keeper === 'every-turn tracker' ? [{ ...checker, runs: 'every turn' as const, context: { recentChatMessages: 1 } }] : [];
  await switchSitesOn(setup.options, [setup.fixtures.origins.primary], { ...scenarioSettings(setup.fixtures, setup.model), profiles });
}

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

/** The latest chat message an every-turn tracker's briefing shows (its "Recent conversation" holds that one only). */
function briefedLine(request: ScriptedRequest): string {
  const briefing = request.body.messages.find((message) => message.role === 'user');
  const text = briefing ? messageText(briefing) : '';
  const recent = text.indexOf('## Recent conversation');
  const said = recent === -1 ? -1 : text.indexOf('**: ', recent);
  return said === -1 ? '' : text.slice(said + '**: '.length).trim();
}

/** The every-turn tracker's root: awaits the tracker Retinue started, or on a swipe the result the ledger holds, and quotes it. */
function everyTurnRootTurn(request: ScriptedRequest): ScriptedTurn {
  const earlier = request.systemText.includes('`earlier-continuity-checker`');
  if (!callArguments(request, 'agent_await')) return { toolCalls: [{ name: 'agent_await', arguments: { tasks: [earlier ? 'earlier-continuity-checker' : 'continuity-checker'] } }] };
  return { content: `${earlier ? 'From the earlier attempt: ' : ''}${quotedTrackerResult(request)}` };
}

function quotedTrackerResult(request: ScriptedRequest): string {
  const awaited = [...request.body.messages].reverse().find((message) => message.role === 'tool');
  const text = awaited ? messageText(awaited) : '';
  const start = text.indexOf('Read [');
  return start === -1 ? `No tracker result: ${text.slice(0, 200)}` : (text.slice(start).split('\n')[0] ?? '');
}

function scriptMemoryKeeper(model: ScriptedModelServer, keeper: MemoryKeeper): void {
  model.reset();
  let writes = 0;
  const nextWrite = () => (writes += 1);
  let trackerLine = '';
  model.script((request): ScriptedTurn | undefined => {
    if (keeper === 'root' || !isTracker(request)) return undefined;
    const step = keeperTurn(request, keeper === 'tracker' ? trackerLine : briefedLine(request), nextWrite);
    if ('said' in step) return { toolCalls: [{ name: 'task_return', arguments: { summary: step.said, status: 'completed' } }] };
    return step;
  });
  model.script((request): ScriptedTurn | undefined => {
    if (!isRoot(request)) return undefined;
    if (keeper === 'root') {
      const step = keeperTurn(request, lastUserLine(request), nextWrite);
      return 'said' in step ? { content: step.said } : step;
    }
    if (keeper === 'every-turn tracker') return everyTurnRootTurn(request);
    if (!callArguments(request, 'agent_delegate')) {
      trackerLine = lastUserLine(request);
      return { toolCalls: [{ name: 'agent_delegate', arguments: { agentId: 'continuity-checker', task: { title: 'Track the scene', objective: 'Keep the scene state.' } } }] };
    }
    if (!callArguments(request, 'agent_await')) return { toolCalls: [{ name: 'agent_await', arguments: { tasks: ['continuity-checker'] } }] };
    return { content: quotedTrackerResult(request) };
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

const LIGHTHOUSE = 'State 1: Mara reaches the lighthouse.';

/**
 * Per keeper: the page's replies of the scenario, the state the side panel shows after the swipe, and
 * the state written on the line that is then deleted (never shown again). A keeper run on every attempt writes a new state on the swipe (State 3) and each swipe's line goes on
 * from its own; the every-turn tracker is not run on the swipe, so both swipes carry the state it
 * wrote on the first (State 2), and what it writes on the deleted line (State 3) never comes back.
 */
function expectedReplies(keeper: MemoryKeeper) {
  if (keeper === 'every-turn tracker') {
    return {
      first: `Read [nothing] wrote [${LIGHTHOUSE}]`,
      second: `Read [${LIGHTHOUSE}] wrote [State 2: She climbs the stairs.]`,
      swipe: `From the earlier attempt: Read [${LIGHTHOUSE}] wrote [State 2: She climbs the stairs.]`,
      afterSwipe: 'State 2: She climbs the stairs.',
      onFirstSwipe: 'Read [State 2: She climbs the stairs.] wrote [State 3: She opens the door.]',
      onSecondSwipe: 'Read [State 2: She climbs the stairs.] wrote [State 4: She opens the door.]',
      deletedLine: 'State 3',
    };
  }
  return {
    first: `Read [nothing] wrote [${LIGHTHOUSE}]`,
    second: `Read [${LIGHTHOUSE}] wrote [State 2: She climbs the stairs.]`,
    swipe: `Read [${LIGHTHOUSE}] wrote [State 3: She climbs the stairs.]`,
    afterSwipe: 'State 3: She climbs the stairs.',
    onFirstSwipe: 'Read [State 2: She climbs the stairs.] wrote [State 4: She opens the door.]',
    onSecondSwipe: 'Read [State 3: She climbs the stairs.] wrote [State 5: She opens the door.]',
    deletedLine: 'State 4',
  };
}

const lastWritten = (reply: string): string => reply.slice(reply.lastIndexOf('wrote [') + 'wrote ['.length, -1);

/** The side panel's "why it ran" of the tracker's task row, once it says `expected` (issue 25 item 4). */
async function panelReasonShows(panel: EvaluatingHandle, expected: string): Promise<void> {
  await waitUntil(
    () =>
      evaluateIn(panel, (wanted: string) => {
        const row = Array.from(document.querySelectorAll('li.task-row')).find((item) => item.querySelector('.task-agent')?.textContent === 'continuity-checker');
        return row?.querySelector('.task-reason')?.textContent === wanted ? true : undefined;
      }, expected),
    { description: `the side panel saying why the tracker ran: ${expected}`, timeoutMs: 15_000 },
  );
}

/** The swipe scenario on an open SillyTavern fixture page, with the side panel open on its site. */
export async function runMemoryAcrossSwipes(setup: { page: EvaluatingHandle; panel: EvaluatingHandle; model: ScriptedModelServer; keeper: MemoryKeeper }): Promise<void> {
  const { page, panel, model } = setup;
  const expected = expectedReplies(setup.keeper);
  scriptMemoryKeeper(model, setup.keeper);
  await waitForFixtureReady(page);

  expect(await send(page, 'Mara reaches the lighthouse.')).toBe(expected.first);
  if (setup.keeper !== 'root') await panelReasonShows(panel, setup.keeper === 'tracker' ? 'asked by the writer' : 'runs every turn');
  expect(await send(page, 'She climbs the stairs.')).toBe(expected.second);
  // A swipe answers the same message: it starts from the memory before it, not from the first swipe's
  // (the every-turn tracker is not run again: its result and memory carry over from the first swipe).
  const trackerCallsBeforeSwipe = model.requests.filter(isTracker).length;
  expect(await send(page, '', 'swipe')).toBe(expected.swipe);
  if (setup.keeper === 'every-turn tracker') expect(model.requests.filter(isTracker)).toHaveLength(trackerCallsBeforeSwipe);
  await panelMemoryShows(panel, expected.afterSwipe);

  // Back to the first swipe, and on from there: its own state.
  await showSwipe(page, 0);
  expect(await send(page, 'She opens the door.')).toBe(expected.onFirstSwipe);
  await panelMemoryShows(panel, lastWritten(expected.onFirstSwipe));

  // Forth to the second swipe (the later turn deleted), and on from there: the second swipe's state.
  await deleteLast(page, 2);
  await showSwipe(page, 1);
  expect(await send(page, 'She opens the door.')).toBe(expected.onSecondSwipe);
  const shown = await panelMemoryShows(panel, lastWritten(expected.onSecondSwipe));
  expect(shown).not.toContain(expected.deletedLine);
}
