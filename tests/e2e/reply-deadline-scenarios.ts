import { expect } from 'vitest';
import { chatIdentitySchema } from '../../src/records/chat-identity';
import { messageText, type ScriptedModelServer, type ScriptedRequest, type ScriptedTurn } from '../support/scripted-model-server';
import { scenarioSettings, waitForEndedRuns } from './chat-turn-scenarios';
import type { EvaluatingHandle } from './support/evaluating-handle';
import { sendFixtureMessage, waitForFixtureReady } from './support/fixture-pages';
import type { FixtureServer } from './support/fixture-server';
import { readRunStore } from './support/settings';
import { switchSitesOn } from './support/site-setup';

/**
 * Two turns on the SillyTavern fixture page with a reply deadline, for Chromium and Firefox alike:
 * the first turn's root delegates a scene critique and awaits it; the critic answers only after the
 * reply reached the page, so the reply comes at the deadline and the critique lands late. The second
 * turn of the same chat (same `getContext().chatId`) starts with that late result in its root's
 * "Since your last reply" section, and only there: the turn after it no longer carries it.
 */

export const CHAT_ID = 'Mara - 2026-11-30@16h00m00s';
export const LATE_FINDING = 'The keeper lost his lantern in chapter one.';
/** Long enough for the root's delegate and await to come first, short next to the e2e timeouts. */
export const REPLY_DEADLINE_MS = 3_000;
const FIRST_REPLY = 'The tower stands dark.';
const FIRST_USER_MESSAGE = 'Mara reaches the lighthouse.';

/** Switches the primary site on with a reply deadline of its own. */
export async function switchOnDeadlineSite(options: EvaluatingHandle, fixtures: FixtureServer, model: ScriptedModelServer): Promise<void> {
  const settings = scenarioSettings(fixtures, model);
  await switchSitesOn(options, [fixtures.origins.primary], {
    ...settings,
    sites: [{ origin: fixtures.origins.primary, enabled: true, adapter: 'auto', replyDeadlineMs: REPLY_DEADLINE_MS }],
  });
}

function toolsCalled(request: ScriptedRequest): string[] {
  return request.body.messages.flatMap((message) =>
    message.role === 'assistant' && message.tool_calls ? message.tool_calls.flatMap((call) => (call.type === 'function' ? [call.function.name] : [])) : [],
  );
}

const isCritic = (request: ScriptedRequest): boolean => request.toolNames.includes('task_return') && request.systemText.includes('You are a scene critic');
const isRoot = (request: ScriptedRequest): boolean => !request.toolNames.includes('task_return');
const carriesLateResult = (request: ScriptedRequest): boolean => request.systemText.includes('## Since your last reply');

/**
 * The root: on the first turn it delegates the critique, awaits it, then replies (a last call after
 * the deadline may come without tools); offered the late critique, it replies at once, quoting it;
 * otherwise it just replies. The critic waits for `released` before it returns its finding.
 */
function scriptDeadlineTurns(model: ScriptedModelServer, released: Promise<void>): void {
  model.reset();
  model.script(async (request) => {
    if (!isCritic(request)) return undefined;
    await released;
    return { toolCalls: [{ name: 'task_return', arguments: { summary: LATE_FINDING, status: 'completed' } }] };
  });
  model.script((request): ScriptedTurn | undefined => {
    if (!isRoot(request)) return undefined;
    if (request.systemText.includes(LATE_FINDING)) return { content: `She remembers: ${LATE_FINDING}` };
    const lastUser = request.body.messages.filter((message) => message.role === 'user').at(-1);
    if (!lastUser || !messageText(lastUser).includes(FIRST_USER_MESSAGE)) return { content: 'On it goes.' };
    const called = toolsCalled(request);
    if (request.toolNames.includes('agent_delegate') && !called.includes('agent_delegate')) {
      return { toolCalls: [{ name: 'agent_delegate', arguments: { agentId: 'scene-critic', task: { title: 'Critique the lighthouse', objective: 'Critique the lighthouse scene.' } } }] };
    }
    if (request.toolNames.includes('agent_await') && !called.includes('agent_await')) return { toolCalls: [{ name: 'agent_await', arguments: {} }] };
    return { content: FIRST_REPLY };
  });
}

/**
 * Runs the two turns on the SillyTavern fixture page (opened by `openPage` with the test chat id) and
 * checks each step: the reply before the critique, the critique after it, the second turn's first
 * model request carrying it, the third's not.
 */
export async function runTurnsAcrossTheDeadline(page: EvaluatingHandle, options: EvaluatingHandle, model: ScriptedModelServer): Promise<void> {
  let release: () => void = () => undefined;
  scriptDeadlineTurns(model, new Promise<void>((resolve) => (release = resolve)));
  await waitForFixtureReady(page);

  const first = await sendFixtureMessage(page, FIRST_USER_MESSAGE);
  expect(first).toMatchObject({ status: 'done', reply: FIRST_REPLY });
  // The reply reached the page while the critic was still held back: it came at the deadline.
  const atReply = await readRunStore(options);
  expect(atReply.runs).toHaveLength(1);
  expect(atReply.runs[0]).toMatchObject({ status: 'running', chat: { conversationId: CHAT_ID } });
  expect(atReply.runs[0]?.repliedAt).toBeTypeOf('number');
  expect(atReply.tasks.map((task) => task.status)).toEqual(['running']);
  expect(model.requests.filter(isCritic)).toHaveLength(1);

  release();
  const { runs: afterFirst, tasks } = await waitForEndedRuns(options, 1);
  expect(afterFirst[0]?.status).toBe('completed');
  expect(tasks.map((task) => task.status)).toEqual(['completed']);

  const before = model.requests.length;
  const second = await sendFixtureMessage(page, 'She climbs the stairs.');
  expect(second).toMatchObject({ status: 'done', reply: `She remembers: ${LATE_FINDING}` });
  const secondRoot = model.requests.slice(before).filter(isRoot);
  expect(carriesLateResult(secondRoot[0]!)).toBe(true);
  expect(secondRoot[0]?.systemText).toContain(LATE_FINDING);
  expect(secondRoot[0]?.systemText).toContain('Critique the lighthouse');
  expect(model.requests.slice(before).filter(isCritic)).toHaveLength(0);

  // Offered once: the turn after that starts without it.
  const beforeThird = model.requests.length;
  const third = await sendFixtureMessage(page, 'At the top, a door.');
  expect(third).toMatchObject({ status: 'done', reply: 'On it goes.' });
  expect(model.requests.slice(beforeThird).filter(isRoot).some(carriesLateResult)).toBe(false);

  const { runs } = await waitForEndedRuns(options, 3);
  const chats = runs.map((run) => chatIdentitySchema().parse(run.chat));
  expect(chats.map((chat) => chat.conversationId)).toEqual([CHAT_ID, CHAT_ID, CHAT_ID]);
  expect(runs.map((run) => run.adapter)).toEqual(['sillytavern', 'sillytavern', 'sillytavern']);
  const indexes = chats.map((chat) => chat.messageIndex ?? -1);
  expect(indexes[1]).toBeGreaterThan(indexes[0]!);
  expect(indexes[2]).toBeGreaterThan(indexes[1]!);
}
