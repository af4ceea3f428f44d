import { expect } from 'vitest';
import { chatIdentitySchema, type ChatIdentity } from '../../src/records/chat-identity';
import { messageText, type ScriptedModelServer, type ScriptedRequest, type ScriptedTurn } from '../support/scripted-model-server';
import { waitForEndedRuns } from './chat-turn-scenarios';
import { evaluateIn, type EvaluatingHandle } from './support/evaluating-handle';
import { sendFixtureMessage, waitForFixtureReady } from './support/fixture-pages';
import { readRunStore } from './support/settings';

/**
 * Multi-turn conversations on the fixture pages, for Chromium and Firefox alike (issue 20.1, 20.6):
 * every turn's root delegates a scene critique unless it was offered one from an earlier attempt at
 * the same message, so the critic's request count says which turns ran their helpers afresh.
 * - SillyTavern page (its chat id) and the OpenAI-style page with chat addresses (`#/chat/<id>`):
 *   five turns with a swipe or regenerate (reuses), an edit of an earlier message (runs again), then a
 *   new chat with the same opening (runs again).
 * - The OpenAI-style page without addresses (a guessed identity): a new chat that opens alike runs
 *   its helpers again.
 * - The KoboldAI Lite-shaped page (whole log as one assistant message, progress kept as `<think>`):
 *   the second message runs its helpers afresh, and no model receives the kept progress lines.
 */

const FRESH = 'Fresh critique for: ';
const REUSED = 'Earlier critique reused for: ';
const PROGRESS_MARK = 'Critique the scene — ';

const isCritic = (request: ScriptedRequest): boolean => request.toolNames.includes('task_return') && request.systemText.includes('You are a scene critic');
const isRoot = (request: ScriptedRequest): boolean => !request.toolNames.includes('task_return');

function lastUserText(request: ScriptedRequest): string {
  const lastUser = request.body.messages.filter((message) => message.role === 'user').at(-1);
  return lastUser ? messageText(lastUser) : '';
}

/** What the user said last: on the whole-log page, the log's last "You:" line. */
function spokenLast(request: ScriptedRequest): string {
  const log = [...request.body.messages].reverse().find((message) => message.role === 'assistant' && messageText(message).includes('\nYou: '));
  if (!log) return lastUserText(request);
  const text = messageText(log);
  return text.slice(text.lastIndexOf('\nYou: ') + 6).split('\n')[0] ?? '';
}

function scriptCritiquingRoot(model: ScriptedModelServer): void {
  model.reset();
  model.script((request): ScriptedTurn | undefined => {
    if (!isCritic(request)) return undefined;
    return { toolCalls: [{ name: 'task_return', arguments: { summary: 'Keep the storm loud.', status: 'completed' } }] };
  });
  model.script((request): ScriptedTurn | undefined => {
    if (!isRoot(request)) return undefined;
    if (request.systemText.includes('earlier-scene-critic')) return { content: `${REUSED}${spokenLast(request)}` };
    const called = request.body.messages.flatMap((message) =>
      message.role === 'assistant' && message.tool_calls ? message.tool_calls.flatMap((call) => (call.type === 'function' ? [call.function.name] : [])) : [],
    );
    if (request.toolNames.includes('agent_delegate') && !called.includes('agent_delegate')) {
      return { toolCalls: [{ name: 'agent_delegate', arguments: { agentId: 'scene-critic', task: { title: 'Critique the scene', objective: 'Critique the scene.' } } }] };
    }
    if (request.toolNames.includes('agent_await') && !called.includes('agent_await')) return { toolCalls: [{ name: 'agent_await', arguments: {} }] };
    return { content: `${FRESH}${spokenLast(request)}` };
  });
}

/** What a conversation page can be asked to do besides sending a message. */
export interface ConversationPage {
  handle: EvaluatingHandle;
  /** A swipe (SillyTavern) or regenerate (OpenAI-style) of the last reply. */
  redo(): Promise<{ status: string; reply: string }>;
  /** Rewrites the first user message. */
  editFirstUserMessage(text: string): Promise<void>;
  /** Opens a new chat (SillyTavern: the page with another chat id, given back as the new handle). */
  newChat(): Promise<EvaluatingHandle>;
}

/** Waits for `count` more ended runs than the store held at `startRuns` (tests share one browser), oldest first. */
async function endedRunsSince(options: EvaluatingHandle, startRuns: number, count: number): Promise<ChatIdentity[]> {
  const { runs } = await waitForEndedRuns(options, startRuns + count);
  return runs.slice(startRuns).map((run) => chatIdentitySchema().parse(run.chat));
}

const runCount = async (options: EvaluatingHandle): Promise<number> => (await readRunStore(options)).runs.length;

async function send(handle: EvaluatingHandle, text: string) {
  const turn = await sendFixtureMessage(handle, text);
  expect(turn.status).toBe('done');
  return turn;
}

/**
 * Five turns and a new chat. Each step checks whether the critic was asked again: a new message
 * runs it afresh, a swipe or regenerate reuses the completed critique, an edit of an earlier message
 * makes it stale, and a new chat that opens alike runs it again. Returns the runs' identities.
 */
export async function runFiveTurnConversation(page: ConversationPage, options: EvaluatingHandle, model: ScriptedModelServer): Promise<ChatIdentity[]> {
  scriptCritiquingRoot(model);
  await waitForFixtureReady(page.handle);
  const startRuns = await runCount(options);
  const critics = () => model.requests.filter(isCritic).length;

  expect((await send(page.handle, 'Mara reaches the lighthouse.')).reply).toBe(`${FRESH}Mara reaches the lighthouse.`);
  expect(critics()).toBe(1);
  expect((await send(page.handle, 'She climbs the stairs.')).reply).toBe(`${FRESH}She climbs the stairs.`);
  expect(critics()).toBe(2);
  await endedRunsSince(options, startRuns, 2);

  const redone = await page.redo();
  expect(redone).toMatchObject({ status: 'done', reply: `${REUSED}She climbs the stairs.` });
  expect(critics()).toBe(2);

  await page.editFirstUserMessage('Mara reaches the old lighthouse at dusk.');
  expect((await send(page.handle, 'At the top, a door.')).reply).toBe(`${FRESH}At the top, a door.`);
  expect(critics()).toBe(3);
  expect((await send(page.handle, 'She opens it.')).reply).toBe(`${FRESH}She opens it.`);
  expect(critics()).toBe(4);
  await endedRunsSince(options, startRuns, 5);

  const newChat = await page.newChat();
  await waitForFixtureReady(newChat);
  expect((await send(newChat, 'Mara reaches the lighthouse.')).reply).toBe(`${FRESH}Mara reaches the lighthouse.`);
  expect(critics()).toBe(5);

  return endedRunsSince(options, startRuns, 6);
}

/** The OpenAI-style page without chat addresses: the same opening in a new chat runs the helpers again. */
export async function runGuessedNewChat(handle: EvaluatingHandle, options: EvaluatingHandle, model: ScriptedModelServer): Promise<ChatIdentity[]> {
  scriptCritiquingRoot(model);
  await waitForFixtureReady(handle);
  const startRuns = await runCount(options);
  expect((await send(handle, 'Hi!')).reply).toBe(`${FRESH}Hi!`);
  await evaluateIn(handle, () => (window as unknown as { fixture: { newChat(): void } }).fixture.newChat(), undefined);
  expect((await send(handle, 'Hi!')).reply).toBe(`${FRESH}Hi!`);
  expect(model.requests.filter(isCritic)).toHaveLength(2);
  return endedRunsSince(options, startRuns, 2);
}

/**
 * The KoboldAI Lite-shaped page: the first turn's progress lines are kept in its log as `<think>`;
 * the second message runs its helpers afresh and what every model receives has no progress line.
 */
export async function runWholeLogTurns(handle: EvaluatingHandle, options: EvaluatingHandle, model: ScriptedModelServer): Promise<void> {
  scriptCritiquingRoot(model);
  await waitForFixtureReady(handle);
  const startRuns = await runCount(options);
  expect((await send(handle, 'Hi!')).reply).toBe(`${FRESH}Hi!`);
  const log = await evaluateIn(handle, () => (window as unknown as { fixture: { log: string } }).fixture.log, undefined);
  expect(log).toContain(`<think>scene-critic · ${PROGRESS_MARK}started`);

  const before = model.requests.length;
  expect((await send(handle, 'Where is the lamp?')).reply).toBe(`${FRESH}Where is the lamp?`);
  const second = model.requests.slice(before);
  expect(second.filter(isCritic)).toHaveLength(1);
  for (const request of second) expect(JSON.stringify(request.body.messages)).not.toContain(PROGRESS_MARK);
  expect(JSON.stringify(second[0]?.body.messages)).toContain(`${FRESH}Hi!`);

  const chats = await endedRunsSince(options, startRuns, 2);
  expect(chats.map((chat) => chat.basis)).toEqual(['guessed', 'guessed']);
  expect(chats[1]?.historyKey).not.toBe(chats[0]?.historyKey);
}

interface PageOpener {
  openPage(url: string): Promise<EvaluatingHandle>;
}

interface FixtureWindow {
  fixture: { chat: Array<{ is_user: boolean; mes: string }>; regenerate(): Promise<{ status: string; reply: string }>; editMessage(index: number, text: string): void; newChat(): void };
}

/** The SillyTavern fixture page on chat `chatId`; a new chat is the page opened on `newChatId`. */
export async function sillyTavernConversation(browser: PageOpener, pageUrl: (query: Record<string, string>) => string, chatId: string, newChatId: string): Promise<ConversationPage> {
  const handle = await browser.openPage(pageUrl({ model: 'scripted-model', chat_id: chatId }));
  return {
    handle,
    redo: () => sendFixtureMessage(handle, '', 'swipe'),
    editFirstUserMessage: (text) =>
      evaluateIn(handle, (edited: string) => {
        const entry = (window as unknown as FixtureWindow).fixture.chat.find((candidate) => candidate.is_user);
        if (entry) entry.mes = edited;
      }, text),
    newChat: () => browser.openPage(pageUrl({ model: 'scripted-model', chat_id: newChatId })),
  };
}

/** The OpenAI-style fixture page with an address per chat (`#/chat/<id>`). */
export async function routedOpenAiConversation(browser: PageOpener, pageUrl: (query: Record<string, string>) => string): Promise<ConversationPage> {
  const handle = await browser.openPage(pageUrl({ route: 'hash', system: 'You are the narrator of a lighthouse story.' }));
  return {
    handle,
    redo: () => evaluateIn(handle, () => (window as unknown as FixtureWindow).fixture.regenerate(), undefined),
    editFirstUserMessage: (text) => evaluateIn(handle, (edited: string) => (window as unknown as FixtureWindow).fixture.editMessage(0, edited), text),
    newChat: async () => {
      await evaluateIn(handle, () => (window as unknown as FixtureWindow).fixture.newChat(), undefined);
      return handle;
    },
  };
}

/** The identities of {@link runFiveTurnConversation}: five runs in the first chat (one a redo of the second), one in the new chat. */
export function expectFiveTurnIdentities(chats: ChatIdentity[], basis: 'page' | 'url'): void {
  expect(chats.map((chat) => chat.basis)).toEqual(Array(6).fill(basis));
  const first = chats[0]?.conversationId;
  expect(chats.slice(0, 5).every((chat) => chat.conversationId === first)).toBe(true);
  expect(chats[5]?.conversationId).not.toBe(first);
  expect(chats[2]?.historyKey).toBe(chats[1]?.historyKey);
  expect(new Set(chats.slice(0, 5).map((chat) => chat.historyKey)).size).toBe(4);
}
